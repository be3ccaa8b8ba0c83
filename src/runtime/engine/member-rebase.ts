import { stamp } from '../clock.js';
import { getItem, updateItem } from '../../store/work-items.js';
import { rebaseReport, type RebaseReport } from './base-change.js';
import { withMember } from './member-worktrees.js';
import { stopOf, type NodeOutcome } from './node-outcome.js';
import type { NodeCtx } from './node-moves.js';
import type { TaskRun } from './step-runner.js';
import { passed } from '../../core/chain/walk-rules.js';

/**
 * The members' runs of a fanned-out `jig.mr_rebase` (the root's is the node's as for any item):
 * each member rebased onto a newer base gets that base pinned on the member, so what counts as
 * its change (its merge request, its diff) is measured from there. A conflict in a member stops
 * the item naming the member: the node's `on_conflict` plan runs in the root's worktree and Jig
 * checks the root's branch after it, so it cannot resolve a member's rebase. Null: go on.
 */
export async function afterMemberRebases(
  ctx: NodeCtx,
  runs: readonly TaskRun[],
): Promise<NodeOutcome | null> {
  let conflict: { run: TaskRun; report: RebaseReport; member: string } | null = null;
  for (const run of runs) {
    const report = rebaseReport(run.session);
    if (!run.member || !report) continue;
    if (report.conflict) conflict ??= { run, report, member: run.member };
    else if (passed(run.status)) await pinMemberBase(ctx, run.member, report.base_tip, run.task.path);
  }
  if (!conflict) return null;
  const { run, report, member } = conflict;
  const files = report.files ?? [];
  const rec = await ctx.h.item(ctx.id);
  const where = rec.workspace?.members.find((m) => m.name === member)?.worktree_path ?? 'its worktree';
  await ctx.h.events.transact(async (uow) => {
    await uow.emit({
      work_item_id: ctx.id,
      type: 'rebase_conflict',
      by: 'jig',
      node: ctx.node.id,
      payload: {
        node: ctx.node.id,
        task: run.task.path,
        session: run.session?.id ?? null,
        base_tip: report.base_tip,
        files,
        plan: null,
        member,
      },
    });
  });
  return stopOf(
    'conflict',
    `member ${member}: rebasing onto ${report.base} (${report.base_tip.slice(0, 12)}) conflicts in ` +
      `${files.join(', ') || 'the worktree'}; resolve it in ${where} and retry`,
    run.session?.id ?? null,
  );
}

async function pinMemberBase(ctx: NodeCtx, member: string, tip: string, how: string): Promise<void> {
  await ctx.h.events.transact(async (uow) => {
    // Read inside the transaction: another member's pin in the same step is not lost.
    const cur = await getItem(uow.db, ctx.id);
    const m = cur?.workspace?.members.find((x) => x.name === member);
    if (!cur?.workspace || !m || m.base_ref === tip) return;
    await updateItem(uow.db, ctx.id, {
      workspace: withMember(cur.workspace, { ...m, base_ref: tip }),
      updated_at: stamp(ctx.h.clock),
    });
    await uow.emit({
      work_item_id: ctx.id,
      type: 'base_ref_moved',
      by: 'jig',
      node: ctx.node.id,
      payload: { node: ctx.node.id, from: m.base_ref, to: tip, how, member },
    });
  });
}
