import { basename, dirname } from 'node:path';
import { z } from 'zod';
import { ResultFile } from '../../contract/result-file.js';
import type { SessionStatus } from '../../store/sessions.js';
import { tooDeep } from '../../core/json/depth.js';
import { readInside } from '../fs/safe-read.js';

/**
 * The result file a task leaves at `$JIG_RESULT_PATH`. The task writes it, and runs with the user's
 * rights in a folder it can write: what is there may be a FIFO (a plain read would block the whole
 * server), a link to /dev/zero (it would fill memory) or a link out. It is read by the rules of
 * src/runtime/fs/safe-read.ts, with the results folder as the root.
 */

/** The most bytes of a result file Jig reads; a longer one makes the task `failed`. */
export const RESULT_MAX_BYTES = 16 * 1024 * 1024;

/**
 * How deep a result file may nest. A real one is a few levels deep (findings, usage); storing and
 * serving a deeper one would overflow the stack in JSON.stringify (issue 14, finding 6).
 */
export const RESULT_MAX_DEPTH = 64;

export interface ResultOutcome {
  status: SessionStatus;
  /** The file's object when it had one (kept even when its status is not valid). */
  result: Record<string, unknown> | null;
  note?: string;
}

const AnObject = z.record(z.string(), z.unknown());

/**
 * How the result file at `path` decides the session, or null when there is none. Anything there
 * that is not a regular file inside the results folder, or is larger than the cap, makes the task
 * `failed` with a note that says why (reference §2.4: an invalid result file is `failed`).
 */
export function readResult(path: string): ResultOutcome | null {
  const file = readInside(dirname(path), basename(path), {
    maxBytes: RESULT_MAX_BYTES,
    rootName: 'results folder',
  });
  if (!file.ok) {
    if (file.reason === 'missing') return null;
    return { status: 'failed', result: null, note: `result file ${file.detail}` };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(file.bytes.toString('utf8'));
  } catch (err) {
    return { status: 'failed', result: null, note: `result file is not JSON: ${(err as Error).message}` };
  }
  if (tooDeep(raw, RESULT_MAX_DEPTH) !== null)
    return {
      status: 'failed',
      result: null,
      note: `result file nests deeper than ${RESULT_MAX_DEPTH} levels`,
    };
  const parsed = ResultFile.safeParse(raw);
  if (!parsed.success) {
    const obj = AnObject.safeParse(raw);
    return {
      status: 'failed',
      result: obj.success ? obj.data : null,
      note: 'result file has no valid status',
    };
  }
  return { status: parsed.data.status, result: parsed.data };
}
