import type { z } from 'zod';
import type { Problem } from '../../contract/problems.js';
import { keysAt } from './schema-keys.js';
import { didYouMean } from './suggest.js';
import { locate, toPlain, type ANode, type PathSeg } from './tree.js';

/** How a file names the thing at a data path: its component path and the field below it. */
export type Describe = (data: unknown, path: readonly PathSeg[]) => { path: string; field: string | null };

/** A better word for an unknown key in one place; a warning hint means "accepted, not read". */
export interface KeyHint {
  message: string;
  warning?: boolean;
}
export type HintFor = (data: unknown, objectPath: readonly PathSeg[], key: string) => KeyHint | undefined;

export interface TreeCheck<T> {
  data: T | null;
  problems: Problem[];
  warnings: Problem[];
}

/** Dotted form of a data path, for files without components: `repos.0.sandbox`. */
export const describePlain: Describe = (_data, path) => {
  if (path.length === 0) return { path: '', field: null };
  return { path: path.slice(0, -1).join('.'), field: String(path[path.length - 1]) };
};

const DEFAULT_MESSAGE =
  /^(Invalid input|Invalid option|Too (small|big)|Invalid (string|discriminator)|Unrecognized)/;

function show(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'string') return `text \`${v.length > 40 ? `${v.slice(0, 40)}…` : v}\``;
  if (typeof v === 'number' || typeof v === 'boolean') return `${typeof v} \`${v}\``;
  return typeof v;
}
const WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'a mapping',
  record: 'a mapping',
};

function valueAt(data: unknown, path: readonly PathSeg[]): unknown {
  let v = data;
  for (const seg of path) v = v && typeof v === 'object' ? (v as Record<PathSeg, unknown>)[seg] : undefined;
  return v;
}

interface Shaped {
  message: string;
  mode: 'key' | 'value';
  path: PathSeg[];
  field?: string;
}

/** zod's issue in words a person editing the file can act on. */
function shape(issue: z.core.$ZodIssue, data: unknown, schema: z.ZodType): Shaped[] {
  const path = issue.path as PathSeg[];
  const custom = !DEFAULT_MESSAGE.test(issue.message);
  const value = valueAt(data, path);
  switch (issue.code) {
    case 'unrecognized_keys': {
      // Keys written beside the typo rank last: `kidn` next to `id:` is not a second `id`.
      const present = value && typeof value === 'object' ? Object.keys(value) : [];
      const known = keysAt(schema, data, path);
      return issue.keys.map((key) => ({
        message: `unknown key \`${key}\`${didYouMean(key, known, { present })}`,
        mode: 'key',
        path: [...path, key],
      }));
    }
    case 'invalid_type':
      if (value === undefined) {
        const name = String(path[path.length - 1]);
        return [{ message: custom ? issue.message : `\`${name}\` is required`, mode: 'key', path }];
      }
      return [
        {
          message: custom
            ? issue.message
            : `expected ${WORDS[issue.expected] ?? issue.expected}, got ${show(value)}`,
          mode: 'value',
          path,
        },
      ];
    case 'invalid_value': {
      const opts = issue.values.map((v) => `\`${String(v)}\``).join(', ');
      const near = typeof value === 'string' ? didYouMean(value, issue.values.map(String)) : '';
      const msg = issue.values.length === 1 ? `must be ${opts}` : `must be one of ${opts}`;
      return [{ message: custom ? issue.message : `${msg}, got ${show(value)}${near}`, mode: 'value', path }];
    }
    case 'invalid_union': {
      const u = issue as z.core.$ZodIssueInvalidUnion & { discriminator?: string; options?: unknown[] };
      if (u.discriminator) {
        const opts = (u.options ?? []).map((o) => `\`${String(o)}\``).join(', ');
        if (value === undefined) {
          return [{ message: `\`${u.discriminator}\` is required: one of ${opts}`, mode: 'key', path }];
        }
        const near = typeof value === 'string' ? didYouMean(value, (u.options ?? []).map(String)) : '';
        return [{ message: `must be one of ${opts}, got ${show(value)}${near}`, mode: 'value', path }];
      }
      return [{ message: custom ? issue.message : `does not match any allowed form`, mode: 'value', path }];
    }
    case 'too_small': {
      if (custom) return [{ message: issue.message, mode: 'value', path }];
      const min = Number(issue.minimum);
      if (issue.origin === 'array')
        return [{ message: `needs at least ${min} item${min === 1 ? '' : 's'}`, mode: 'value', path }];
      if (issue.origin === 'string')
        return [
          {
            message: min <= 1 ? 'must not be empty' : `must be at least ${min} characters`,
            mode: 'value',
            path,
          },
        ];
      return [
        {
          message: `must be ${issue.inclusive ? 'at least' : 'more than'} ${min}, got ${show(value)}`,
          mode: 'value',
          path,
        },
      ];
    }
    case 'too_big': {
      if (custom) return [{ message: issue.message, mode: 'value', path }];
      const max = Number(issue.maximum);
      return [
        {
          message: `must be ${issue.inclusive ? 'at most' : 'less than'} ${max}, got ${show(value)}`,
          mode: 'value',
          path,
        },
      ];
    }
    case 'invalid_key': {
      const key = String(path[path.length - 1]);
      const inner = issue.issues[0]?.message ?? 'is not allowed';
      return [
        {
          message: `key \`${key}\` ${DEFAULT_MESSAGE.test(inner) ? 'is not allowed here' : inner}`,
          mode: 'key',
          path,
        },
      ];
    }
    default:
      return [{ message: issue.message, mode: 'value', path }];
  }
}

function removeAt(data: unknown, objectPath: readonly PathSeg[], key: string): void {
  const obj = valueAt(data, objectPath);
  if (obj && typeof obj === 'object') delete (obj as Record<string, unknown>)[key];
}

/*
 * A config file is checked once per load, so zod's compiled fast path (an object schema turned into
 * a function with `new Function` on its first parse) costs more than it saves here: at every start
 * it compiled the chain, library and settings schemas again, a fifth of the config check (issue 43).
 * Request bodies, parsed many times by one schema, keep it.
 */
const JITLESS = { jitless: true } as const;

/**
 * Checks a tree against a schema and turns every issue into a problem at its place. Keys a hint
 * marks as warnings are dropped before the check (read and ignored), so the file still loads.
 */
export function validateTree<T>(
  tree: ANode,
  schema: z.ZodType<T>,
  opts: { file: string; describe?: Describe; hint?: HintFor; data?: unknown },
): TreeCheck<T> {
  const describe = opts.describe ?? describePlain;
  const data = opts.data ?? toPlain(tree);
  const warnings: Problem[] = [];
  let result = schema.safeParse(data, JITLESS);
  if (!result.success && opts.hint) {
    let dropped = false;
    for (const issue of result.error.issues) {
      if (issue.code !== 'unrecognized_keys') continue;
      for (const key of issue.keys) {
        const h = opts.hint(data, issue.path as PathSeg[], key);
        if (!h?.warning) continue;
        const where = locate(tree, [...(issue.path as PathSeg[]), key], 'key');
        const d = describe(data, issue.path as PathSeg[]);
        warnings.push({
          path: d.path,
          field: d.field ? `${d.field}.${key}` : key,
          message: h.message,
          ...where,
        });
        removeAt(data, issue.path as PathSeg[], key);
        dropped = true;
      }
    }
    if (dropped) result = schema.safeParse(data, JITLESS);
  }
  if (result.success) return { data: result.data, problems: [], warnings };
  const problems: Problem[] = [];
  for (const issue of result.error.issues) {
    for (const s of shape(issue, data, schema)) {
      const last = s.path[s.path.length - 1];
      const objectPath = s.path.slice(0, -1);
      const h =
        issue.code === 'unrecognized_keys' && typeof last === 'string' && opts.hint
          ? opts.hint(data, objectPath, last)
          : undefined;
      const where = locate(tree, s.path, s.mode);
      // An unknown key is a field of the object holding it, even when its name is a container's.
      const d = issue.code === 'unrecognized_keys' ? describe(data, objectPath) : describe(data, s.path);
      const field =
        issue.code === 'unrecognized_keys'
          ? d.field
            ? `${d.field}.${String(last)}`
            : String(last)
          : d.field;
      problems.push({ path: d.path, field, message: h?.message ?? s.message, ...where });
    }
  }
  return { data: null, problems, warnings };
}
