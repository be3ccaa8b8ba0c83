import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { BeadId } from '../../contract/item-issues.js';
import { onPath } from '../on-path.js';

/*
 * Beads (`bd`), the local issue tracker auto-intake reads: `bd ready --json` in the repository lists
 * the open issues nothing blocks, `bd blocked --json` those something does (with `blocked_by`),
 * `bd close ID --reason …` closes one. Run as a child process with a
 * time limit; its output is checked, never trusted.
 */

/** How long one `bd` call may take before it counts as failed. */
const BD_TIMEOUT_MS = 30_000;
/** More output than this from `bd ready` is refused rather than held in memory. */
const BD_MAX_BUFFER = 16 * 1024 * 1024;

/** One issue as `bd ready --json` lists it; fields auto-intake does not read are let through. */
const ReadyBead = z
  .object({
    // Checked as a bead id: it is passed to `bd close` as an argument, never as an option.
    id: BeadId,
    title: z.string().default(''),
    description: z.string().nullish(),
    // Checked by the rules (a non-integer priority is skipped with a reason), not here.
    priority: z.unknown(),
    issue_type: z.string().nullish(),
  })
  .passthrough();
export type ReadyBead = z.infer<typeof ReadyBead>;

/** One issue as `bd blocked --json` lists it: a ready bead's fields and the open beads blocking it. */
const BlockedBead = ReadyBead.extend({ blocked_by: z.array(BeadId).nullish() });
export type BlockedBead = z.infer<typeof BlockedBead>;

/** Why a repository has no beads to read, or its ready list. */
export type ReadyAnswer =
  { ok: true; beads: ReadyBead[] } | { ok: false; skip: 'no_beads' | 'no_bd' | 'bd_failed'; reason: string };

function run(
  bd: string,
  args: string[],
  cwd: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(bd, args, { cwd, timeout: BD_TIMEOUT_MS, maxBuffer: BD_MAX_BUFFER }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({
        code,
        stdout: String(stdout),
        stderr: String(stderr || (err && code !== 0 ? err.message : '')),
      });
    });
  });
}

const firstLine = (s: string): string => s.trim().split('\n')[0]?.slice(0, 300) ?? '';

/** `bd` as found on the server's PATH, or null. */
export const findBd = (env: NodeJS.ProcessEnv = process.env): string | null => onPath('bd', env);

/** The ready issues of a repository, or why it has none to read (no `.beads/`, no `bd`, `bd` failed). */
export async function readyBeads(repo: string, env: NodeJS.ProcessEnv = process.env): Promise<ReadyAnswer> {
  if (!existsSync(join(repo, '.beads')))
    return { ok: false, skip: 'no_beads', reason: 'the repo has no .beads/' };
  const bd = findBd(env);
  if (!bd) return { ok: false, skip: 'no_bd', reason: "bd is not on the server's PATH" };
  const r = await run(bd, ['ready', '--json'], repo);
  if (r.code !== 0)
    return { ok: false, skip: 'bd_failed', reason: `bd ready exited ${r.code}: ${firstLine(r.stderr)}` };
  let parsed: unknown;
  try {
    // `bd ready` prints nothing (not `[]`) on some versions when nothing is ready.
    parsed = r.stdout.trim() === '' ? [] : JSON.parse(r.stdout);
  } catch {
    return {
      ok: false,
      skip: 'bd_failed',
      reason: `bd ready --json printed no JSON: ${firstLine(r.stdout)}`,
    };
  }
  const list = z.array(ReadyBead).safeParse(parsed);
  if (!list.success) {
    const issue = list.error.issues[0];
    return {
      ok: false,
      skip: 'bd_failed',
      reason: `bd ready --json is not a list of issues: ${issue?.path.join('.') || 'the answer'}: ${issue?.message ?? ''}`,
    };
  }
  return { ok: true, beads: list.data };
}

/**
 * The open beads something blocks (`bd blocked --json`), each with the beads blocking it; a `bd`
 * that does not know the command (or fails) answers why, and the poll goes on with the ready ones.
 */
export async function blockedBeads(
  repo: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ ok: true; beads: BlockedBead[] } | { ok: false; reason: string }> {
  const bd = findBd(env);
  if (!bd || !existsSync(join(repo, '.beads'))) return { ok: true, beads: [] };
  const r = await run(bd, ['blocked', '--json'], repo);
  if (r.code !== 0) return { ok: false, reason: `bd blocked exited ${r.code}: ${firstLine(r.stderr)}` };
  let parsed: unknown;
  try {
    parsed = r.stdout.trim() === '' ? [] : JSON.parse(r.stdout);
  } catch {
    return { ok: false, reason: `bd blocked --json printed no JSON: ${firstLine(r.stdout)}` };
  }
  const list = z.array(BlockedBead).safeParse(parsed);
  if (!list.success) {
    const issue = list.error.issues[0];
    return {
      ok: false,
      reason: `bd blocked --json is not a list of issues: ${issue?.path.join('.') || 'the answer'}: ${issue?.message ?? ''}`,
    };
  }
  return { ok: true, beads: list.data };
}

/** Closes beads in a repository; answers null, or why `bd` could not. */
export async function closeBeads(
  repo: string,
  ids: readonly string[],
  reason: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string | null> {
  const bd = findBd(env);
  if (!bd) return "bd is not on the server's PATH";
  for (const id of ids) {
    const r = await run(bd, ['close', id, '--reason', reason], repo);
    if (r.code !== 0) return `bd close ${id} exited ${r.code}: ${firstLine(r.stderr)}`;
  }
  return null;
}
