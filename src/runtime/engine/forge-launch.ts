import { documentReadable } from '../fs/worktree-document.js';
import { isAbsolute, join } from 'node:path';
import { z } from 'zod';
import type { RepoEntry } from '../../contract/config/repos.js';
import { ForgeMergeRequest } from '../../contract/merge-requests.js';
import { closingLines } from '../../core/forge/mr-meta.js';
import { issuesOf } from '../../store/item-issues.js';
import { getMergeRequest, saveMergeRequest } from '../../store/merge-requests.js';
import { stamp } from '../clock.js';
import { repoForge } from '../forge/for-repo.js';
import { policyOf, type EngineResources } from './resources.js';
import type { Launched, TaskLaunch } from './step-runner.js';
import { FORGE_TASK, type ImmediateForge } from './task-spec.js';

/** What the task process reports of a forge failure (runtime/builtins/forge-task). */
const ForgeFailure = z.object({
  summary: z.string().optional(),
  forge_error: z.object({ kind: z.string() }),
});

/** Forge failures that are about reaching the forge, not the change: a person fixes the set-up. */
const INFRA = new Set(['auth', 'unreachable', 'timeout']);

/**
 * Runs one immediate forge action for an item (runtime/builtins/forge-task): finds the forge from
 * repos.yaml and origin, the token from the server's environment (a missing one is an `infra` stop
 * naming what to set), hands both to the task process in its environment only, and records the
 * merge request it answers with (`mr_opened` the first time, `mr_updated` after).
 */
export async function launchForge(
  r: EngineResources,
  repo: RepoEntry,
  req: TaskLaunch & { target: ImmediateForge },
): Promise<Launched> {
  const { rec, node, task, target, timeCapS, member } = req;
  // A workspace member's merge request is its own repository's, from its own worktree and base.
  if (member) repo = member.repo;
  // Merge requests are kept under the server's path of the repo (a worker's --repo-map undone).
  const shared = r.repos.shared(repo.path);
  const worktree = member?.cwd ?? rec.worktree_path;
  const base = member?.baseBranch ?? rec.base_branch;
  if (worktree === null)
    return { refuse: { stop: 'config', reason: `${task.path}: the item has no worktree yet` } };
  const forge = await repoForge(repo);
  if (!forge.ok) return { refuse: { stop: forge.stop, reason: `${task.path}: ${forge.reason}` } };
  const loc = forge.location;
  if (!rec.branch || !base)
    return { refuse: { stop: 'config', reason: `${task.path}: the item has no branch to push` } };
  const known = await getMergeRequest(r.store.db, rec.id, shared);
  // A document recorded with a problem (a link out, over 10 MiB) is never handed on to be read.
  const recorded = rec.walk?.artifacts?.mr_meta;
  const meta =
    typeof recorded === 'string' && rec.worktree_path && documentReadable(rec.worktree_path, recorded)
      ? recorded
      : undefined;
  // The root's merge request closes the item's issues on its forge; a member's is its own project's.
  const closes = member ? [] : closingLines(await issuesOf(r.store.db, rec.id), loc);
  const env: Record<string, string> = {
    JIG_FORGE: JSON.stringify(loc),
    JIG_FORGE_TOKEN: forge.token,
    JIG_FORGE_TIMEOUT_S: String(policyOf(r, rec)?.forge_cli_timeout_s ?? 120),
    JIG_MR_HEAD: rec.branch,
    JIG_MR_BASE: base,
    JIG_MR_TITLE: rec.title,
    ...(known ? { JIG_MR_NUMBER: String(known.number) } : {}),
    ...(closes.length > 0 ? { JIG_MR_CLOSES: closes.join('\n') } : {}),
    ...(typeof meta === 'string'
      ? { JIG_MR_META: isAbsolute(meta) ? meta : join(rec.worktree_path ?? worktree, meta) }
      : {}),
  };
  const session = await r.workers.runCommand({
    rec,
    repo,
    node,
    taskPath: task.path,
    kind: 'forge',
    argv: [process.execPath, FORGE_TASK, target],
    cwd: worktree,
    timeCapS,
    env,
    ...(member ? { member: member.name } : {}),
  });
  const mr = ForgeMergeRequest.safeParse(session.result?.merge_request);
  if (mr.success) {
    const before = await saveMergeRequest(r.store.db, rec.id, shared, mr.data, stamp(r.clock));
    const { number, url, state, draft } = mr.data;
    await r.events.record(
      rec.id,
      before === null || before.number !== number ? 'mr_opened' : 'mr_updated',
      {
        repo: shared,
        number,
        url,
        state,
        draft,
        task: task.path,
        ...(member ? { member: member.name } : {}),
      },
      { node },
    );
  }
  const failed = ForgeFailure.safeParse(session.result);
  const kind = failed.success ? failed.data.forge_error.kind : null;
  if (kind !== null && INFRA.has(kind)) {
    const summary = (failed.success && failed.data.summary) || `forge ${kind}`;
    const hint = kind === 'auth' ? ` (the token came from ${forge.source})` : '';
    return { refuse: { stop: 'infra', reason: `${task.path}: ${summary}${hint}`, session: session.id } };
  }
  return { session };
}
