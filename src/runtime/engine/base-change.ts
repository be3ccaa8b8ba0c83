import { stamp } from '../clock.js';
import { own } from '../../core/json/own.js';
import { asStarted } from './started-item.js';
import { itemOr404 } from '../../store/work-items.js';
import { existsSync } from 'node:fs';
import type { ModelTask } from '../../core/chain/model.js';
import type { SessionRecord } from '../../store/sessions.js';
import { updateItem } from '../../store/work-items.js';
import type { StartedItem } from './started-item.js';
import { git } from '../git/git.js';
import { OPEN_OPERATIONS } from '../git/open-operations.js';
import { failureReason, hardStop, stopOf, type NodeOutcome } from './node-outcome.js';
import { move, type NodeCtx } from './node-moves.js';
import { atNode } from '../../core/chain/walk-state.js';
import { runStep, stepOf, type TaskRun } from './step-runner.js';
import { passed } from '../../core/chain/walk-rules.js';

/** What `jig.mr_rebase` reports in its result file (see `runtime/builtins/mr-rebase.ts`). */
export interface RebaseReport {
  base: string;
  base_tip: string;
  head_before: string;
  head_after?: string;
  conflict: boolean;
  rebased?: boolean;
  files?: string[];
}

export function rebaseReport(s: SessionRecord | null | undefined): RebaseReport | null {
  const r = (s?.result as { rebase?: unknown } | null | undefined)?.rebase;
  return r && typeof r === 'object' && typeof (r as RebaseReport).base_tip === 'string'
    ? (r as RebaseReport)
    : null;
}

export const isConflict = (s: SessionRecord | null | undefined): boolean =>
  rebaseReport(s)?.conflict === true;

/** The rebase a node's `on_base_changed` runs when it finds the base moved: the builtin, by its own path. */
export function baseRebaseTask(ctx: NodeCtx): ModelTask {
  return {
    id: 'on_base_changed',
    kind: 'builtin',
    ref: 'jig.mr_rebase',
    path: `${ctx.node.id}.on_base_changed`,
  };
}

/** The base branch's tip when it is no longer the one the item's worktree was cut from or rebased onto. */
export async function movedBase(rec: StartedItem): Promise<string | null> {
  if (!rec.worktree_path || !rec.base_branch || !rec.base_ref) return null;
  const tip = await git(rec.worktree_path, [
    'rev-parse',
    '--verify',
    '--quiet',
    `${rec.base_branch}^{commit}`,
  ]);
  const sha = tip.stdout.trim();
  return tip.code === 0 && sha !== '' && sha !== rec.base_ref ? sha : null;
}

/** The index the walk restarts from: `restart_from` (this or an earlier exec node), else this node. */
function restartIndex(ctx: NodeCtx): number {
  const name = ctx.node.on_base_changed?.restart_from;
  const here = ctx.chain.nodes.indexOf(ctx.node);
  const i = name ? ctx.chain.nodes.findIndex((n) => n.id === name) : -1;
  return i >= 0 && i <= here && ctx.chain.nodes[i]!.kind === 'exec' ? i : here;
}

/**
 * The branch now sits on a newer base: the base is pinned to it, and the walk restarts from
 * `restart_from`, since what ran on the old base (tests, reviews) no longer says anything about this
 * code. Restarts per node are bounded by policy `default.attempts`, like reject loops.
 */
export async function restartOnNewBase(
  ctx: NodeCtx,
  rec: StartedItem,
  tip: string,
  cap: number,
  how: string,
): Promise<NodeOutcome> {
  const count = (own(rec.walk.base_restarts, ctx.node.id) ?? 0) + 1;
  if (count > cap) {
    // Not pinned: the nodes from restart_from never ran on this base, so a retry must restart them.
    return stopOf(
      'cap',
      `${ctx.node.id}.on_base_changed restarted the chain ${cap} time(s); the base keeps moving`,
    );
  }
  const target = restartIndex(ctx);
  const to = ctx.chain.nodes[target]!.id;
  await ctx.h.events.transact(async (uow) => {
    // The walk as it is now, inside the transaction: a hold set meanwhile is kept.
    const { walk } = asStarted(await itemOr404(uow.db, ctx.id));
    await updateItem(uow.db, ctx.id, {
      base_ref: tip,
      walk: {
        ...atNode(walk, target),
        base_restarts: { ...walk.base_restarts, [ctx.node.id]: count },
        approved: walk.approved.filter((g) => !ctx.chain.nodes.slice(target).some((n) => n.id === g)),
      },
      current_node: to,
      updated_at: stamp(ctx.h.clock),
    });
    await uow.emit({
      work_item_id: ctx.id,
      type: 'base_change_restart',
      by: 'jig',
      node: ctx.node.id,
      payload: { node: ctx.node.id, from: rec.base_ref, to: tip, restart_from: to, count, how },
    });
  });
  return { kind: 'moved' };
}

/** Records that the branch was rebased onto a newer base without restarting anything. */
export async function pinBase(ctx: NodeCtx, rec: StartedItem, tip: string, how: string): Promise<void> {
  if (rec.base_ref === tip) return;
  await ctx.h.events.transact(async (uow) => {
    await updateItem(uow.db, ctx.id, { base_ref: tip, updated_at: stamp(ctx.h.clock) });
    await uow.emit({
      work_item_id: ctx.id,
      type: 'base_ref_moved',
      by: 'jig',
      node: ctx.node.id,
      payload: { node: ctx.node.id, from: rec.base_ref, to: tip, how },
    });
  });
}

/**
 * A rebase that conflicted: the node's `on_conflict` plan runs when it has one (the only way Jig
 * tries to resolve a conflict), else the item stops with a `conflict` stop for a person.
 */
export async function onConflict(
  ctx: NodeCtx,
  run: TaskRun,
  report: RebaseReport,
): Promise<NodeOutcome | null> {
  const plan = ctx.node.on_base_changed?.on_conflict;
  const files = report.files ?? [];
  await move(
    ctx,
    (w) =>
      plan
        ? {
            ...w,
            phase: 'conflict',
            step: 0,
            step_at: null,
            conflict: { base: report.base, base_tip: report.base_tip, files },
          }
        : w,
    [
      {
        type: 'rebase_conflict',
        payload: {
          task: run.task.path,
          session: run.session?.id ?? null,
          base_tip: report.base_tip,
          files,
          plan: plan?.path ?? null,
        },
      },
    ],
  );
  if (plan) return null;
  return stopOf(
    'conflict',
    `rebasing onto ${report.base} (${report.base_tip.slice(0, 12)}) conflicts in ${files.join(', ') || 'the worktree'}; ` +
      `resolve it in the worktree and retry, or give ${ctx.node.id} an on_base_changed.on_conflict plan`,
    run.session?.id ?? null,
  );
}

/** What the `on_conflict` plan's agents are told, beside the task's own prompt. */
export function conflictBrief(
  rec: StartedItem,
  c: { base: string; base_tip: string; files: string[] },
): string {
  return [
    `Jig could not rebase the branch ${rec.branch} onto ${c.base} (${c.base_tip}): it conflicts in`,
    ...c.files.map((f) => `- ${f}`),
    '',
    `Rebase it yourself: run \`git rebase ${c.base_tip}\`, resolve each conflict keeping the intent of`,
    'both sides, `git add` the files and `git rebase --continue` until the rebase finishes. Leave the',
    'worktree clean with no rebase in progress; Jig checks that the branch contains that commit.',
  ].join('\n');
}

/** After the conflict plan: the branch must contain the base tip, with no rebase or merge left open. */
export async function verifyRebase(worktree: string, tip: string): Promise<string | null> {
  for (const dir of OPEN_OPERATIONS) {
    const p = await git(worktree, ['rev-parse', '--git-path', dir]);
    const abs = p.stdout.trim();
    if (abs && existsSync(abs.startsWith('/') ? abs : `${worktree}/${abs}`)) {
      await git(worktree, ['rebase', '--abort']);
      await git(worktree, ['merge', '--abort']);
      return `a ${dir === 'MERGE_HEAD' ? 'merge' : 'rebase'} was left in progress (Jig aborted it)`;
    }
  }
  const unmerged = (await git(worktree, ['diff', '--name-only', '--diff-filter=U'])).stdout.trim();
  if (unmerged) return `files are still unmerged: ${unmerged.split('\n').join(', ')}`;
  const ok = await git(worktree, ['merge-base', '--is-ancestor', tip, 'HEAD']);
  return ok.code === 0 ? null : `the branch does not contain ${tip.slice(0, 12)}`;
}

const restartCap = (ctx: NodeCtx, rec: StartedItem): number => ctx.h.policy(rec)?.default?.attempts ?? 3;

/**
 * On entering a node with `on_base_changed`: compares the base branch's tip with the pinned base.
 * Unmoved, the node's steps run; moved, the rebase phase comes first.
 */
export async function checkBase(ctx: NodeCtx, rec: StartedItem): Promise<void> {
  const tip = await movedBase(rec);
  await move(ctx, (w) => ({ ...w, base_checked: true, ...(tip ? { phase: 'base' as const } : {}) }), [
    ...(tip ? [{ type: 'base_change_detected' as const, payload: { from: rec.base_ref, to: tip } }] : []),
  ]);
}

/** The rebase onto the moved base, run as the builtin (supervised, adopted after a restart). */
export async function baseRebase(ctx: NodeCtx, rec: StartedItem): Promise<NodeOutcome | null> {
  const r = await runStep(ctx.h, {
    rec,
    repo: ctx.repo,
    chain: ctx.chain,
    node: ctx.node,
    step: stepOf(baseRebaseTask(ctx)),
  });
  if (r.kind === 'halt') return r;
  if (r.kind === 'refuse') return stopOf(r.stop ?? 'config', r.reason, r.session ?? null);
  const hard = hardStop(r.runs);
  if (hard) return hard;
  const next = await afterRebase(ctx, r.runs[0]!, true);
  // Only pinned (the base was where the branch already sat): the node's own steps come next.
  if (next === null && (await ctx.h.item(ctx.id)).walk.phase === 'base')
    await move(ctx, (w) => ({ ...w, phase: 'node', step: 0, step_at: null, base_checked: true }), []);
  return next;
}

/**
 * What a finished rebase means for the walk. `restart`: the node has `on_base_changed`, so a branch
 * now on a base other than the pinned one restarts from `restart_from`; otherwise the new base is
 * only pinned. Null: the walk goes on.
 */
export async function afterRebase(ctx: NodeCtx, run: TaskRun, restart: boolean): Promise<NodeOutcome | null> {
  const rec = await ctx.h.item(ctx.id);
  const report = rebaseReport(run.session);
  if (report?.conflict) return onConflict(ctx, run, report);
  if (!passed(run.status) || !report) {
    const said = (run.session?.result as { summary?: unknown } | null | undefined)?.summary;
    const why = typeof said === 'string' ? `${run.task.path}: ${said}` : failureReason(run);
    return stopOf('failed', why, run.session?.id ?? null);
  }
  const how = run.task.path;
  // With `on_base_changed`, code on a base it was not verified on restarts, whoever rebased it (a
  // person who resolved a conflict by hand included); otherwise the new base is only recorded.
  if (!restart || report.base_tip === rec.base_ref) {
    await pinBase(ctx, rec, report.base_tip, how);
    return null;
  }
  return restartOnNewBase(ctx, rec, report.base_tip, restartCap(ctx, rec), how);
}

/** The node's `on_conflict` plan, then the check that the rebase really happened, then the restart. */
export async function conflictPlan(ctx: NodeCtx, rec: StartedItem): Promise<NodeOutcome | null> {
  const plan = ctx.node.on_base_changed?.on_conflict;
  const c = rec.walk.conflict;
  if (!plan || !c) return stopOf('infra', `${ctx.node.id}: no conflict to resolve (the chain changed?)`);
  for (let i = rec.walk.step; i < plan.steps.length; i++) {
    const cur = await ctx.h.item(ctx.id);
    const r = await runStep(ctx.h, {
      rec: cur,
      repo: ctx.repo,
      chain: ctx.chain,
      node: ctx.node,
      step: plan.steps[i]!,
      brief: () => conflictBrief(cur, c),
    });
    if (r.kind === 'halt') return r;
    if (r.kind === 'refuse') return stopOf(r.stop ?? 'config', r.reason, r.session ?? null);
    const hard = hardStop(r.runs);
    if (hard) return hard;
    const bad = r.runs.find((x) => !passed(x.status));
    if (bad) {
      // Never leave the worktree mid-rebase for the person who takes over.
      const left = await verifyRebase(rec.worktree_path!, c.base_tip);
      const note = left?.includes('Jig aborted it') ? `; ${left}` : '';
      return stopOf('conflict', `${plan.path}: ${failureReason(bad)}${note}`, bad.session?.id ?? null);
    }
    await move(ctx, (w) => ({ ...w, step: i + 1, step_at: null }), []);
  }
  const problem = await verifyRebase(rec.worktree_path!, c.base_tip);
  if (problem) {
    return stopOf(
      'conflict',
      `${plan.path} ran but the rebase onto ${c.base} is not done: ${problem}; resolve it in the worktree and retry`,
    );
  }
  // The conflict stays on the walk until the restart below moves it to another node: a server
  // stopped in between finds the plan done and verifies again, rather than nothing to resolve.
  await move(ctx, (w) => w, [
    { type: 'worktree_rebase_verified', payload: { base_tip: c.base_tip, plan: plan.path } },
  ]);
  const fresh = await ctx.h.item(ctx.id);
  return restartOnNewBase(ctx, fresh, c.base_tip, restartCap(ctx, fresh), plan.path);
}
