/**
 * A forge task that acts at once (`mr.open_draft`, `mr.sync`, `mr.mark_ready`), run as a supervised
 * task process like every builtin, so it is logged, capped and adopted after a restart. It pushes
 * the item's branch to `origin` and acts on the merge request through the forge's API; what
 * happened goes to `$JIG_RESULT_PATH` with a `merge_request` block the engine records.
 *
 * Usage: node forge-task.js <target>
 * Environment (set by Jig; the token is never in argv or the log):
 *   JIG_FORGE          {"forge","project","api_url"}
 *   JIG_FORGE_TOKEN    the token
 *   JIG_FORGE_TIMEOUT_S  per request (forge_cli_timeout_s)
 *   JIG_MR_HEAD, JIG_MR_BASE  the item's branch and its base branch
 *   JIG_MR_NUMBER      the merge request already recorded for the item, if any
 *   JIG_MR_META        the mr_meta document's path (title and description), if written
 *   JIG_MR_TITLE       the title when there is no document (the item's)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { ForgeKind } from '../../contract/config/repos.js';
import type { ForgeLocation } from '../../core/forge/locate.js';
import { readMrMeta, withClosingLines } from '../../core/forge/mr-meta.js';
import { forgeClient } from '../forge/client.js';
import { ForgeError, type MergeRequest } from '../forge/types.js';

function finish(result: Record<string, unknown>, code: number): never {
  const path = process.env.JIG_RESULT_PATH;
  if (path) {
    writeFileSync(`${path}.tmp`, JSON.stringify(result, null, 2));
    renameSync(`${path}.tmp`, path);
  }
  process.stdout.write(`${String(result.summary)}\n`);
  process.exit(code);
}

const fail = (summary: string, extra: Record<string, unknown> = {}): never =>
  finish({ status: 'failed', summary, ...extra }, 1);

function git(args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync('git', args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
  });
  return { code: r.status ?? 1, out: (r.stdout ?? '').trim(), err: (r.stderr ?? '').trim() };
}

const Location = z.object({ forge: ForgeKind, project: z.string().min(1), api_url: z.string().min(1) });

function location(): ForgeLocation {
  let raw: unknown = null;
  try {
    raw = JSON.parse(process.env.JIG_FORGE ?? '');
  } catch {
    // reported below
  }
  const v = Location.safeParse(raw);
  return v.success ? v.data : fail('forge task: JIG_FORGE does not name a forge location');
}

/**
 * Pushes HEAD to the item's branch on origin. A rebase rewrites the branch, so the push may
 * replace it, but only from the state Jig last saw there (the remote-tracking ref, else what
 * origin has now): someone else's push in between is refused, not overwritten.
 */
function push(head: string): string {
  const tracking = git(['rev-parse', '--verify', '--quiet', `refs/remotes/origin/${head}`]);
  let expected = tracking.code === 0 ? tracking.out : null;
  if (expected === null) {
    const remote = git(['ls-remote', 'origin', `refs/heads/${head}`]);
    if (remote.code !== 0) fail(`push: cannot read origin: ${remote.err.split('\n').at(-1) ?? ''}`);
    expected = remote.out.split(/\s/)[0] ?? '';
  }
  const r = git([
    'push',
    `--force-with-lease=refs/heads/${head}:${expected}`,
    'origin',
    `HEAD:refs/heads/${head}`,
  ]);
  if (r.code !== 0) fail(`push of ${head} to origin failed: ${r.err.split('\n').slice(-3).join(' ')}`);
  git(['update-ref', `refs/remotes/origin/${head}`, 'HEAD']);
  return git(['rev-parse', 'HEAD']).out;
}

function meta(): { title: string; body: string } {
  const path = process.env.JIG_MR_META;
  const text = path && existsSync(path) ? readFileSync(path, 'utf8') : null;
  const m = readMrMeta(text, process.env.JIG_MR_TITLE?.trim() || 'Jig work item');
  const closes = (process.env.JIG_MR_CLOSES ?? '').split('\n').filter((l) => l.trim() !== '');
  return { title: m.title, body: withClosingLines(m.body, closes) };
}

async function main(): Promise<void> {
  const target = process.argv[2];
  const head = process.env.JIG_MR_HEAD ?? '';
  const base = process.env.JIG_MR_BASE ?? '';
  const token = process.env.JIG_FORGE_TOKEN ?? '';
  if (!head || !base) fail('forge task: JIG_MR_HEAD and JIG_MR_BASE must name the branches');
  if (!token) fail('forge task: no forge token');
  const timeoutS = Number(process.env.JIG_FORGE_TIMEOUT_S ?? 120);
  const forge = forgeClient(
    location(),
    token,
    (Number.isFinite(timeoutS) && timeoutS > 0 ? timeoutS : 120) * 1000,
  );
  const known = Number(process.env.JIG_MR_NUMBER ?? '');
  const recorded = async (): Promise<MergeRequest | null> =>
    Number.isInteger(known) && known > 0 ? forge.get(known) : forge.findOpen(head);

  let mr: MergeRequest;
  let summary: string;
  if (target === 'mr.open_draft' || target === 'mr.sync') {
    const sha = push(head);
    const m = meta();
    const existing = await recorded();
    if (existing && existing.state !== 'open')
      fail(`merge request ${existing.url} is ${existing.state}`, { merge_request: existing });
    if (existing) {
      mr = await forge.describe(existing, m);
      summary = `pushed ${sha.slice(0, 12)} to ${head}; ${mr.url} is up to date`;
    } else if (target === 'mr.open_draft') {
      mr = await forge.openDraft({ head, base, ...m });
      summary = `pushed ${sha.slice(0, 12)} to ${head}; opened draft ${mr.url}`;
    } else {
      return fail(
        `mr.sync: the item has no open merge request from ${head}; open one with mr.open_draft first`,
      );
    }
  } else if (target === 'mr.mark_ready') {
    const existing = await recorded();
    if (!existing) return fail(`mr.mark_ready: no open merge request from ${head}`);
    mr = await forge.markReady(existing);
    summary = `${mr.url} is ready for review`;
  } else {
    return fail(`forge task: ${String(target)} is not an action this script takes`);
  }
  finish({ status: 'done', summary, merge_request: mr }, 0);
}

main().catch((err: unknown) => {
  if (err instanceof ForgeError) fail(err.message, { forge_error: { kind: err.kind, status: err.status } });
  fail(`forge task: ${err instanceof Error ? err.message : String(err)}`);
});
