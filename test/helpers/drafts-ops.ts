import { parse } from 'yaml';
import { expect } from 'vitest';
import type { DraftsJig } from './drafts.js';
import type { HttpResult } from './server.js';

/** `POST /api/drafts/{area}/{key}/ops`, or its preview. */
export const postOps = (
  j: DraftsJig,
  area: string,
  key: string,
  ops: unknown[],
  preview = false,
): Promise<HttpResult> =>
  j.call('POST', `/api/drafts/${area}/${key}/ops${preview ? '?preview=1' : ''}`, { ops });

/** What a client can see of a draft: its answer (status and body) and the draft list. */
export async function snapshot(
  j: DraftsJig,
  area: string,
  key: string,
): Promise<{ status: number; draft: unknown; list: unknown }> {
  const draft = await j.call('GET', `/api/drafts/${area}/${key}`);
  const list = await j.call('GET', '/api/drafts');
  return { status: draft.status, draft: draft.json, list: list.json };
}

/** A refused op: 422 `draft_op_refused` naming the op's index, with the detail matched. */
export function expectRefused(
  res: HttpResult,
  op: number | null,
  detail: string | RegExp,
  extra: Record<string, unknown> = {},
): void {
  expect(res.status).toBe(422);
  expect(res.json).toEqual({
    code: 'draft_op_refused',
    detail: typeof detail === 'string' ? detail : expect.stringMatching(detail),
    op,
    ...extra,
  });
}

/** The document a file of a draft answer holds, parsed (null when the draft deletes it). */
export function docOf(res: HttpResult, file: string): any {
  const text: unknown = res.json.files[file];
  return typeof text === 'string' ? parse(text) : null;
}

/** A published config file, parsed: a fresh copy a test edits into the document it expects. */
export function diskDoc(j: DraftsJig, file: string): any {
  const text = j.disk(file);
  return text === null ? null : parse(text);
}

/** Drops the draft of a key when one is open, so the next test starts from the published files. */
export async function discard(j: DraftsJig, area: string, key: string): Promise<void> {
  const res = await j.call('DELETE', `/api/drafts/${area}/${key}`);
  expect([204, 404]).toContain(res.status);
}

/** The lines two texts with as many lines differ in, as [before, after] pairs: a one-field op's diff. */
export function changedLines(before: string, after: string): [string, string][] {
  const a = before.split('\n');
  const b = after.split('\n');
  expect(b.length, `line count changed:\n${after}`).toBe(a.length);
  return a.flatMap((line, i): [string, string][] => (line === b[i] ? [] : [[line, b[i] ?? '']]));
}
