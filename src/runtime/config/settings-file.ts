import { Document, isMap, parseDocument, YAMLMap } from 'yaml';
import type { z } from 'zod';
import { JigError } from '../../contract/errors.js';
import type { ConfigFiles } from './config-writer.js';
import { assign } from './yaml-edit.js';
import { own } from '../../core/json/own.js';

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first problem of a parse, as its field and message. */
export function firstProblem(err: { issues: { path: PropertyKey[]; message: string }[] }, file: string) {
  const i = err.issues[0];
  return { field: i?.path.map(String).join('.') || file, message: i?.message ?? 'invalid' };
}

/** A settings file's text as its model; a missing file is the defaults, one that does not load too (with why). */
export function parseSettings<T>(
  file: string,
  schema: z.ZodType<T>,
  text: string | null,
): { value: T; problem: string | null } {
  const defaults = schema.parse({});
  if (text === null) return { value: defaults, problem: null };
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0) return { value: defaults, problem: `${file}: ${doc.errors[0]?.message ?? ''}` };
  const parsed = schema.safeParse(doc.toJS() ?? {});
  if (parsed.success) return { value: parsed.data, problem: null };
  const p = firstProblem(parsed.error, file);
  return { value: defaults, problem: `${file}: ${p.field}: ${p.message}` };
}

/**
 * Saves a settings form into its file: each key given replaces its value (a mapping given is merged
 * into the file's key by key, so `{board: {show_done: 3}}` keeps the rest of `board`), comments on
 * what survives are kept, the result is checked by the file's schema, and the file is written
 * atomically. `refuse` builds the 422 that names the field; nothing is written then. It runs inside
 * an operation of the home's config writer (`files`), so no other save comes between its read and
 * its write.
 */
export function saveSettings<T>(
  files: ConfigFiles,
  o: {
    file: string;
    schema: z.ZodType<T>;
    patch: Record<string, unknown>;
    mode?: number;
    refuse: (reason: string, field: string, message: string) => JigError;
  },
): T {
  const text = files.read(o.file);
  const doc = text === null ? new Document({}) : parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0 || (doc.contents !== null && !isMap(doc.contents)))
    throw o.refuse(
      `the file on disk is not a YAML mapping (${doc.errors[0]?.message ?? 'not a mapping'}); fix it by hand first`,
      o.file,
      'not a YAML mapping',
    );
  if (doc.contents === null) doc.contents = new YAMLMap();
  const map = doc.contents as YAMLMap;
  const now: unknown = doc.toJS() ?? {};
  for (const [key, value] of Object.entries(o.patch)) {
    if (value === undefined) continue;
    const had = isObj(now) ? own(now, key) : undefined;
    assign(doc, map, key, isObj(value) && isObj(had) ? { ...had, ...value } : value);
  }
  const next = o.schema.safeParse(doc.toJS() ?? {});
  if (!next.success) {
    const p = firstProblem(next.error, o.file);
    throw o.refuse(`${p.field}: ${p.message}`, `body.${p.field}`, p.message);
  }
  files.write(o.file, doc.toString(), o.mode ?? 0o644);
  return next.data;
}

/** The 422 a settings file's save answers (`settings_invalid`), naming the file and the field. */
export const settingsRefusal =
  (file: string) =>
  (reason: string, field: string, message: string): JigError =>
    new JigError('settings_invalid', { file, reason }, { issues: [{ field, message }] });
