import { nodeSettings } from '../../core/items/node-settings.js';
import { afterMemberRebases } from './member-rebase.js';
import { stamp } from '../clock.js';
import type { ModelExecNode, ModelStep, ResolvedChain } from '../../core/chain/model.js';
import { sessionsOf, type SessionRecord } from '../../store/sessions.js';
import { roundOf } from '../../core/findings/stuck.js';
import type { RepoEntry } from '../../contract/config/repos.js';
import type { StartedItem } from './started-item.js';
import { decide, judge, judged, loopSeverities, repair } from './fix-loop.js';
import { measure } from './measure.js';
import { failureReason, hardStop, stopOf, type NodeOutcome } from './node-outcome.js';
import { measuredSessions, move, type NodeCtx, type NodeHost } from './node-moves.js';
import { nearestHandler, nodeTasks, planAt } from '../../core/chain/node-plans.js';
import { afterRebase, baseRebase, checkBase, conflictPlan, isConflict, rebaseReport } from './base-change.js';
import { freshEntry, remeasure } from '../../core/chain/walk-state.js';
import { runStep, stepOf } from './step-runner.js';
import { passed } from '../../core/chain/walk-rules.js';

/**
 * The latest session of each task of the step other than `only`, when it finished (done,
 * done_with_concerns or failed): what a one-task retry keeps.
 */
async function keptSiblings(
  h: NodeHost,
  id: string,
  step: ModelStep,
  only: string,
): Promise<SessionRecord[]> {
  const all = await sessionsOf(h.store.db, id);
  return step.tasks
    .filter((t) => t.path !== only)
    .flatMap((t) => {
      // The last session of each run: one per member for a fanned-out task.
      const last = new Map<string | null, SessionRecord>();
      for (const x of all) if (x.task_path === t.path) last.set(x.member, x);
      return [...last.values()].filter((x) => passed(x.status) || x.status === 'failed');
    });
}

/**
 * Runs one exec node with its failure handling (reference §2.7): the steps, then once per entry a
 * recovery plan and a rerun, then the fix loop, then escalation when stuck. Each phase is persisted
 * in the item's walk, so after a restart the node continues where it was.
 */
export class NodeRunner {
  constructor(private readonly h: NodeHost) {}

  async run(id: string, chain: ResolvedChain, node: ModelExecNode, repo: RepoEntry): Promise<NodeOutcome> {
    const ctx: NodeCtx = { h: this.h, id, chain, node, repo };
    for (;;) {
      if (!(await this.h.fence.stillRunning(id))) return { kind: 'halt' };
      const rec = await this.h.item(id);
      const stuck = (reason: string) => this.stuck(ctx, rec, reason);
      let out: NodeOutcome | null;
      switch (rec.walk.phase ?? 'node') {
        case 'node':
          if (
            ctx.node.on_base_changed &&
            !rec.walk.base_checked &&
            rec.walk.step === 0 &&
            !rec.walk.step_at
          ) {
            await checkBase(ctx, rec);
            out = null;
          } else out = await this.steps(ctx, rec);
          break;
        case 'base':
          out = await baseRebase(ctx, rec);
          break;
        case 'conflict':
          out = await conflictPlan(ctx, rec);
          break;
        case 'recovery':
          out = await this.recovery(ctx, rec);
          break;
        case 'decide':
          out = await decide(ctx, rec);
          break;
        case 'judge':
          out = await judge(ctx, rec, stuck);
          break;
        case 'judged':
          out = await judged(ctx, rec, stuck);
          break;
        case 'repair':
          out = await repair(ctx, rec);
          break;
        case 'escalation':
          out = await this.escalation(ctx, rec);
          break;
      }
      if (out) return out;
    }
  }

  /** The node's own steps, as one measurement; a failing step ends it (later steps need it to pass). */
  private async steps(ctx: NodeCtx, rec: StartedItem): Promise<NodeOutcome | null> {
    const { node } = ctx;
    for (let i = rec.walk.step; i < node.steps.length; i++) {
      const step = node.steps[i]!;
      const readOnly = step.read_only === true || node.read_only === true;
      const cur = await this.h.item(ctx.id);
      const one = i === rec.walk.step ? (cur.walk.only_task ?? undefined) : undefined;
      // Siblings of a one-task retry that never finished (no session, paused, capped, lost) run
      // with it: only a finished result, passed or failed, is kept.
      const kept = one ? await keptSiblings(this.h, ctx.id, step, one) : [];
      // What a person marked to pass (`skip --path`) does not run: a step, or some of its tasks.
      const passed = cur.walk.skipped ?? [];
      const open = step.tasks
        .map((t) => t.path)
        .filter((p) => !passed.includes(p) && !kept.some((k) => k.task_path === p));
      if (passed.includes(step.path) || open.length === 0) {
        await move(ctx, (w) => ({ ...w, step: i + 1, step_at: null, only_task: null }), []);
        continue;
      }
      const only = one || open.length < step.tasks.length ? open : undefined;
      const r = await runStep(this.h, {
        rec: cur,
        repo: ctx.repo,
        chain: ctx.chain,
        node: node,
        step: step,
        readOnly,
        ...(only ? { only } : {}),
      });
      if (r.kind === 'halt') return r;
      if (r.kind === 'refuse') return stopOf(r.stop ?? 'config', r.reason, r.session ?? null);
      const hard = hardStop(r.runs);
      if (hard) return hard;
      // A rebase in the node's own steps: a conflict goes to `on_conflict`, a new base restarts.
      // A fanned-out rebase: the members' first (their bases pinned, a conflict stops), then the root's.
      const rebases = r.runs.filter(
        (x) => x.task.kind === 'builtin' && x.task.ref === 'jig.mr_rebase' && rebaseReport(x.session),
      );
      const members = await afterMemberRebases(ctx, rebases);
      if (members) return members;
      const rebase = rebases.find((x) => x.member === undefined);
      if (rebase && (isConflict(rebase.session) || rebase.status === 'done')) {
        const next = await afterRebase(ctx, rebase, node.on_base_changed !== undefined);
        if (next) return next;
        if ((await this.h.item(ctx.id)).walk.phase === 'conflict') return null;
      }
      if (r.violation) {
        await move(ctx, (w) => w, [
          {
            type: 'read_only_violated',
            payload: { step: step.path, before: r.violation.before, after: r.violation.after },
          },
        ]);
        return stopOf('failed', `${step.path} is read_only but changed the worktree (${r.violation.after})`);
      }
      // A retry of one task keeps its siblings' last results: they are measured with it, so a
      // sibling that failed still fails the step and its findings still count.
      const failed = [...r.runs.map((x) => x.status), ...kept.map((x) => x.status)].includes('failed');
      const ids = [...kept.map((x) => x.id), ...r.runs.flatMap((x) => (x.session ? [x.session.id] : []))];
      await move(
        ctx,
        (w) => ({
          ...w,
          measured: [...(w.measured ?? []), ...ids],
          step: failed ? node.steps.length : i + 1,
          step_at: null,
          only_task: null,
          ...(failed ? { failed_step: i } : {}),
        }),
        [],
      );
      if (failed) break;
    }
    return this.measured(ctx, await this.h.item(ctx.id));
  }

  /** The measurement is over: recover once, or record the findings and open the fix loop, or end. */
  private async measured(ctx: NodeCtx, rec: StartedItem): Promise<NodeOutcome | null> {
    const w = rec.walk;
    const sessions = await measuredSessions(ctx, w);
    const failed = sessions.filter((s) => s.status === 'failed');
    const handler = failed.length > 0 && !w.recovery ? nearestHandler(ctx.node, failed[0]!.task_path) : null;
    if (handler) {
      await move(ctx, (x) => ({ ...x, phase: 'recovery', recovery: handler.path, step: 0, step_at: null }), [
        {
          type: 'node_recovery_started',
          payload: { plan: handler.path, failed: failed.map((s) => s.task_path), entry: w.entry ?? 1 },
        },
      ]);
      return null;
    }
    const m = measure(sessions, nodeTasks(ctx.node));
    const sev = loopSeverities(this.h.policy(rec));
    const loop = m.findings.filter((f) => sev.includes(f.severity));
    const firstFailure = (): NodeOutcome => {
      const s = failed[0]!;
      return stopOf(
        'failed',
        failureReason({ task: { path: s.task_path }, status: s.status, session: s }),
        s.id,
      );
    };
    if (!ctx.node.fix_loop && m.findings.length === 0 && failed.length === 0)
      return { kind: 'completed', payload: {} };
    const round = roundOf(w.rounds ?? [], w.cycles ?? 0, loop);
    const open = ctx.node.fix_loop !== undefined && loop.length > 0;
    await move(
      ctx,
      (x) => ({
        ...x,
        rounds: [...(x.rounds ?? []), round],
        ...(open
          ? { phase: 'decide' as const, loop_started_at: x.loop_started_at ?? stamp(this.h.clock) }
          : {}),
      }),
      [
        {
          type: 'findings_measured',
          payload: {
            entry: w.entry ?? 1,
            round: round.round,
            findings: m.findings.map(({ tag, severity, message, file, line, task, member, synthetic }) => ({
              tag,
              severity,
              message,
              ...(file !== undefined ? { file } : {}),
              ...(line !== undefined ? { line } : {}),
              task,
              ...(member !== undefined ? { member } : {}),
              ...(synthetic ? { synthetic } : {}),
            })),
            dropped: m.dropped,
            failed: m.failed.map((f) => f.task),
            loop_severities: sev,
            loop_open: open,
          },
        },
      ],
    );
    if (open) return null;
    if (failed.length > 0) return firstFailure();
    return { kind: 'completed', payload: {} };
  }

  /** Runs the recovery plan; it must end `done`, then the whole node reruns from its first step. */
  private async recovery(ctx: NodeCtx, rec: StartedItem): Promise<NodeOutcome | null> {
    const plan = planAt(ctx.node, rec.walk.recovery);
    if (!plan) return stopOf('infra', `recovery plan ${rec.walk.recovery ?? '?'} is not in the chain`);
    for (let i = rec.walk.step; i < plan.steps.length; i++) {
      const r = await runStep(this.h, {
        rec: await this.h.item(ctx.id),
        repo: ctx.repo,
        chain: ctx.chain,
        node: ctx.node,
        step: plan.steps[i]!,
      });
      if (r.kind === 'halt') return r;
      if (r.kind === 'refuse') return stopOf(r.stop ?? 'config', r.reason, r.session ?? null);
      const hard = hardStop(r.runs);
      if (hard) return hard;
      const bad = r.runs.find((x) => x.status === 'failed' || x.status === 'done_with_concerns');
      if (bad)
        return stopOf('failed', `recovery ${plan.path}: ${failureReason(bad)}`, bad.session?.id ?? null);
      await move(ctx, (w) => ({ ...w, step: i + 1, step_at: null }), []);
    }
    await move(ctx, remeasure, []);
    return null;
  }

  /** The node is stuck: its escalation task runs once, else the item stops as `stuck`. */
  private async stuck(ctx: NodeCtx, rec: StartedItem, reason: string): Promise<NodeOutcome | null> {
    // A person may turn the node's own escalation off for this item (node override `auto_escalate`).
    const allowed = nodeSettings(rec.node_overrides, ctx.node.id).auto_escalate !== false;
    const esc = allowed && ctx.node.escalation && !rec.walk.escalated ? ctx.node.escalation : null;
    await move(
      ctx,
      (w) =>
        esc
          ? { ...w, phase: 'escalation', escalated: true, stuck_reason: reason, step: 0, step_at: null }
          : w,
      [
        { type: 'node_stuck', payload: { reason, escalation: esc?.path ?? null } },
        ...(esc ? [{ type: 'stuck_escalation_started' as const, payload: { task: esc.path, reason } }] : []),
      ],
    );
    return esc ? null : stopOf('stuck', reason);
  }

  private async escalation(ctx: NodeCtx, rec: StartedItem): Promise<NodeOutcome | null> {
    const task = ctx.node.escalation!;
    const reason = rec.walk.stuck_reason ?? `${ctx.node.id} is stuck`;
    const r = await runStep(this.h, {
      rec,
      repo: ctx.repo,
      chain: ctx.chain,
      node: ctx.node,
      step: stepOf(task),
    });
    if (r.kind === 'halt') return r;
    if (r.kind === 'refuse') return stopOf(r.stop ?? 'config', r.reason, r.session ?? null);
    const run = r.runs[0]!;
    const ok = passed(run.status);
    await move(ctx, (w) => (ok ? freshEntry(w) : w), [
      {
        type: 'stuck_escalation_finished',
        payload: { task: task.path, status: run.status, session: run.session?.id ?? null, fresh_entry: ok },
      },
      ...(ok
        ? [{ type: 'node_started' as const, payload: { step: 0, entry: (rec.walk.entry ?? 1) + 1 } }]
        : []),
    ]);
    if (ok) return null;
    if (run.status === 'config_error') return stopOf('config', failureReason(run), run.session?.id ?? null);
    return stopOf('stuck', `${reason} (escalation ${failureReason(run)})`, run.session?.id ?? null);
  }
}
