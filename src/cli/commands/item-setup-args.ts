import { createRequire } from 'node:module';
import { InvalidArgumentError } from 'commander';
import type * as Yaml from 'yaml';
import type { AttachmentKind } from '../../contract/items.js';
import { OVERRIDE_KEYS, policyOverrideProblem } from '../../core/items/policy-override.js';
import { ATTACHMENT_KINDS } from '../contract-names.js';

/*
 * Argument parsing and reporting shared by the item setup verbs (item-setup.ts). Commander runs the
 * parsers while it reads the command line, with the command tree only (lazy.ts): they load nothing
 * heavier than yaml, and that only when a `--policy` value is read.
 */

/** A bad argument, or a refusal the CLI decides itself: one line on stderr, exit 2, nothing changed. */
export class BadArgument extends Error {}

/** yaml's `parse`, loaded when the first value is read (a parser cannot wait for an `import()`). */
const parseYaml = (text: string): unknown =>
  (createRequire(import.meta.url)('yaml') as typeof Yaml).parse(text);

/** `a=1 b=x`, or `none`: what one line prints of an override object. */
export function describeValues(values: Record<string, unknown>): string {
  const parts = Object.entries(values).map(
    ([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`,
  );
  return parts.length > 0 ? parts.join(' ') : 'none';
}

export interface PolicyAssignment {
  key: string;
  value: unknown;
}

const SCOPE_PATH = /^[a-z][a-z0-9_-]*(\.[a-z][a-z0-9_-]*)*$/;

/**
 * One `--policy PATH.FIELD=VALUE`: VALUE read as YAML (so `3` is a number), FIELD one of the keys an
 * item's policy override takes, PATH the component path of the scope it sets.
 */
export function parsePolicyAssignment(raw: string): PolicyAssignment {
  const eq = raw.indexOf('=');
  if (eq < 0) throw new InvalidArgumentError('expected PATH.FIELD=VALUE, e.g. verification.max_attempts=3');
  const key = raw.slice(0, eq).trim();
  const dot = key.lastIndexOf('.');
  if (dot < 0 || !SCOPE_PATH.test(key))
    throw new InvalidArgumentError(
      `${key || '(empty)'} is not PATH.FIELD: a component path such as verification or verification.review, then the field`,
    );
  const field = key.slice(dot + 1);
  if (!(OVERRIDE_KEYS as readonly string[]).includes(field))
    throw new InvalidArgumentError(`${field} is not one of ${OVERRIDE_KEYS.join(', ')}`);
  let value: unknown;
  try {
    value = parseYaml(raw.slice(eq + 1));
  } catch (err) {
    throw new InvalidArgumentError(
      `the value of ${key} is not YAML: ${(err as Error).message.split('\n')[0]?.replace(/:\s*$/, '')}`,
    );
  }
  const bad = policyOverrideProblem({ [key]: value });
  if (bad) throw new InvalidArgumentError(`${key} ${bad.message}`);
  return { key, value };
}

/** Repeatable `--policy`; no default, so help shows none (the verb reads a missing list as empty). */
export function collectPolicy(raw: string, prev: PolicyAssignment[] | undefined): PolicyAssignment[] {
  return [...(prev ?? []), parsePolicyAssignment(raw)];
}

export function collectKind(raw: string, prev: AttachmentKind[] | undefined): AttachmentKind[] {
  const kind = ATTACHMENT_KINDS.find((k) => k === raw);
  if (kind === undefined) throw new InvalidArgumentError(`${raw} is not an attachment kind (spec or plan)`);
  return [...(prev ?? []), kind];
}
