import type { RepoEntry } from '../../contract/config/repos.js';
import type { WaitTarget } from '../../contract/config/task.js';
import type { Finding } from '../../contract/result-file.js';
import type { CiCheck, CiReport, ForgeClient, ForgeComment, MergeMethod, MergeRequest } from './types.js';
import { ForgeError } from './types.js';

/** A notice recorded once when a wait passes because the repository has nothing to wait on. */
export type WaitNotice = 'ci_not_configured' | 'automated_review_not_configured';

/** What one poll of a wait saw. */
export type Observation =
  | { state: 'pending'; detail: string; mr: MergeRequest }
  | { state: 'passed'; detail: string; mr: MergeRequest; notice?: WaitNotice }
  | { state: 'failed'; detail: string; mr: MergeRequest; findings: Finding[] }
  /** Closed on the forge without being merged: the item stops (`mr_closed`). */
  | { state: 'closed'; detail: string; mr: MergeRequest };

export interface PollInput {
  target: WaitTarget;
  client: ForgeClient;
  repo: RepoEntry;
  /** The merge request the item recorded. */
  number: number;
  /** When the branch was last pushed (comments before it were answered by that push). */
  pushedAt: string | null;
}

const LOG_LINES = 40;

/** A failing check as a finding a repair agent can act on: its name, what the forge says, its log. */
function checkFinding(c: CiCheck, where: string): Finding {
  const summary = c.summary
    ?.split('\n')
    .find((l) => l.trim() !== '')
    ?.trim();
  const lines = c.log?.split('\n').slice(-LOG_LINES) ?? [];
  return {
    severity: 'critical',
    message: `${where} check "${c.name}" failed${summary ? `: ${summary}` : ''}`,
    source_plugin: 'ci',
    ...(lines.length > 0 ? { log_tail: lines } : {}),
    ...(c.url ? { url: c.url } : {}),
  };
}

function commentFinding(c: ForgeComment): Finding {
  const verdict = c.kind === 'changes_requested' ? ' requested changes' : '';
  return {
    severity: c.kind === 'changes_requested' ? 'critical' : 'important',
    message: `${c.author}${verdict}: ${c.body.trim() || '(no text)'}`,
    source_plugin: 'review',
    ...(c.path ? { file: c.path } : {}),
    ...(c.line !== null ? { line: c.line } : {}),
  };
}

function names(checks: readonly CiCheck[], state: CiCheck['state']): string {
  const n = checks.filter((c) => c.state === state).map((c) => c.name);
  return n.length <= 5 ? n.join(', ') : `${n.slice(0, 5).join(', ')} and ${n.length - 5} more`;
}

/** CI of one commit, read as a wait reads it: `none` waits (CI may not have registered yet). */
function ciObservation(report: CiReport, mr: MergeRequest, sha: string, where: string): Observation {
  const at = sha.slice(0, 12);
  switch (report.state) {
    case 'passing':
      return { state: 'passed', mr, detail: `${report.checks.length} check(s) passed on ${at}` };
    case 'failing':
      return {
        state: 'failed',
        mr,
        detail: `failing on ${at}: ${names(report.checks, 'failing')}`,
        findings: report.checks.filter((c) => c.state === 'failing').map((c) => checkFinding(c, where)),
      };
    case 'pending':
      return { state: 'pending', mr, detail: `pending on ${at}: ${names(report.checks, 'pending')}` };
    case 'none':
      return {
        state: 'pending',
        mr,
        detail: `no CI has reported on ${at} yet (a repository without CI sets ci_checks: false)`,
      };
  }
}

/** The review a repository expects (repos.yaml `automated_review`), read from every comment page. */
async function reviewObservation(i: PollInput, mr: MergeRequest): Promise<Observation> {
  const want = i.repo.automated_review;
  if (want?.check !== undefined) {
    if (!mr.sha) return { state: 'pending', mr, detail: 'the merge request has no head commit yet' };
    const report = await i.client.ci(mr.sha);
    const check = report.checks.find((c) => c.name === want.check);
    if (!check) return { state: 'pending', mr, detail: `check "${want.check}" has not reported yet` };
    return ciObservation({ state: check.state, checks: [check] }, mr, mr.sha, 'review');
  }
  // Compared as instants: forges write offsets (Gitea: +08:00), Jig writes UTC.
  const since = i.pushedAt === null ? Number.NEGATIVE_INFINITY : Date.parse(i.pushedAt);
  const fresh = (await i.client.comments(mr)).filter((c) => !(Date.parse(c.created_at) < since));
  // Line comments and requested changes are asked of the change; a plain comment only from the bot.
  const asked = fresh.filter(
    (c) =>
      c.kind === 'changes_requested' ||
      c.path !== null ||
      (want?.bot !== undefined && c.author === want.bot && c.kind !== 'approved' && c.body.trim() !== ''),
  );
  if (want?.bot !== undefined && !fresh.some((c) => c.author === want.bot)) {
    return { state: 'pending', mr, detail: `waiting for ${want.bot} to review` };
  }
  if (asked.length > 0) {
    return {
      state: 'failed',
      mr,
      detail: `${asked.length} review comment(s) to address`,
      findings: asked.map(commentFinding),
    };
  }
  if (want?.bot !== undefined)
    return { state: 'passed', mr, detail: `${want.bot} reviewed with nothing to fix` };
  return {
    state: 'passed',
    mr,
    detail: 'no automated review is configured (repos.yaml automated_review) and no comment asks for changes',
    notice: 'automated_review_not_configured',
  };
}

/** Tries the merge; a forge that is not ready to merge (checks, approvals, a queue) is waited on. */
async function mergeObservation(i: PollInput, mr: MergeRequest): Promise<Observation> {
  const method: MergeMethod = i.repo.merge_method ?? 'merge';
  try {
    const merged = await i.client.merge(mr, method);
    if (merged.state === 'merged')
      return { state: 'passed', mr: merged, detail: `merged (${method}) as ${merged.merge_sha ?? '?'}` };
    return { state: 'pending', mr: merged, detail: 'the forge accepted the merge; waiting for it to land' };
  } catch (err) {
    if (err instanceof ForgeError && (err.kind === 'conflict' || err.kind === 'refused'))
      return { state: 'pending', mr, detail: `not mergeable yet: ${err.message}` };
    throw err;
  }
}

/**
 * One poll of an external wait. Every poll reads the merge request first, so a merge request
 * closed without merging is noticed by whichever wait is running. ForgeError propagates: the
 * caller tells a refused token (an `infra` stop) from a forge that did not answer (polled again).
 */
export async function pollWait(i: PollInput): Promise<Observation> {
  const mr = await i.client.get(i.number);
  if (mr.state === 'closed')
    return { state: 'closed', mr, detail: `${mr.url} was closed without being merged` };
  switch (i.target) {
    case 'mr.ci':
      if (i.repo.ci_checks === false)
        return { state: 'passed', mr, detail: 'ci_checks: false in repos.yaml', notice: 'ci_not_configured' };
      if (!mr.sha) return { state: 'pending', mr, detail: 'the merge request has no head commit yet' };
      return ciObservation(await i.client.ci(mr.sha), mr, mr.sha, 'CI');
    case 'mr.automated_review':
      return reviewObservation(i, mr);
    case 'mr.external_approval': {
      const a = await i.client.approval(mr);
      if (a.state === 'approved') return { state: 'passed', mr, detail: a.detail };
      if (a.state === 'pending') return { state: 'pending', mr, detail: a.detail };
      return {
        state: 'failed',
        mr,
        detail: a.detail,
        findings: a.changes_requested.map((c) =>
          commentFinding({ ...c, id: '', kind: 'changes_requested', path: null, line: null, created_at: '' }),
        ),
      };
    }
    case 'mr.merge':
      if (mr.state === 'merged')
        return { state: 'passed', mr, detail: `already merged as ${mr.merge_sha ?? '?'}` };
      return mergeObservation(i, mr);
    case 'mr.post_merge_ci':
      if (mr.state !== 'merged')
        return { state: 'failed', mr, detail: `${mr.url} is not merged`, findings: [] };
      if (i.repo.ci_checks === false)
        return { state: 'passed', mr, detail: 'ci_checks: false in repos.yaml', notice: 'ci_not_configured' };
      if (!mr.merge_sha)
        return { state: 'pending', mr, detail: 'the forge has not said which commit the merge made' };
      return ciObservation(await i.client.ci(mr.merge_sha), mr, mr.merge_sha, 'post-merge CI');
  }
}
