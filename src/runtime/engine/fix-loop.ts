import { DEFAULT_LOOP_SEVERITIES } from '../../contract/config/policy.js';
import { judgeVerdicts, verdictOf, type JudgeVerdict } from '../../contract/verdicts.js';
import type { Walk } from '../../contract/walk.js';
import type { PolicyFile } from '../../contract/config/policy.js';
import { fixBrief } from '../../core/findings/brief.js';
import { stuckReason } from '../../core/findings/stuck.js';
import { overrideAt } from '../../core/items/policy-override.js';
import { loopLimits } from '../../core/policy/loops.js';
import type { StartedItem } from './started-item.js';
import { measure, type Measurement } from './measure.js';
import { failureReason, hardStop, stopOf, type NodeOutcome } from './node-outcome.js';
import { measuredSessions, move, type NodeCtx } from './node-moves.js';
import { nodeTasks } from '../../core/chain/node-plans.js';
import { isConflict } from './base-change.js';
import { remeasure } from '../../core/chain/walk-state.js';
import { runStep, stepOf } from './step-runner.js';

/*
 * The fix loop's cycle (reference §2.7, step 2), one persisted phase at a time so a restart resumes it:
 * `decide` (builtin-only check) → `judge` (not on an entry's first cycle) → `judged` (limits, stuck
 * detection, then `fix_cycle_started`) → `repair` → the node is measured again from its first step.
 * Returning null means "the walk moved; look at it again".
 */

export function loopSeverities(policy: PolicyFile | null): string[] {
  return [...(policy?.findings?.loop_severities ?? DEFAULT_LOOP_SEVERITIES)];
}

type Stuck = (reason: string) => Promise<NodeOutcome | null>;

async function current(
  ctx: NodeCtx,
  rec: StartedItem,
  w: Walk,
): Promise<{ m: Measurement; loop: Measurement['findings'] }> {
  const m = measure(await measuredSessions(ctx, w), nodeTasks(ctx.node));
  const sev = loopSeverities(ctx.h.policy(rec));
  return { m, loop: m.findings.filter((f) => sev.includes(f.severity)) };
}

/** The loop's limits, with the item's own override for the node on top (maxima still clamp). */
function limits(ctx: NodeCtx, rec: StartedItem) {
  const policy = ctx.h.policy(rec);
  const base = loopLimits(ctx.chain, ctx.node.id, policy)!;
  const o = overrideAt(rec.policy_override, ctx.node.id);
  const maxA = policy?.maxima?.max_attempts;
  const maxW = policy?.maxima?.timeout_minutes;
  const out = { ...base };
  if (o.max_attempts !== undefined)
    out.attempts = { value: Math.min(o.max_attempts, maxA ?? Infinity), source: 'item' };
  if (o.timeout_minutes !== undefined)
    out.wall_clock_s = { value: Math.min(o.timeout_minutes, maxW ?? Infinity) * 60, source: 'item' };
  return out;
}

function briefFor(ctx: NodeCtx, rec: StartedItem, w: Walk, m: Measurement, loop: Measurement['findings']) {
  return (): string =>
    fixBrief({
      node: ctx.node.id,
      cycle: w.cycles ?? 0,
      attempts: limits(ctx, rec).attempts.value,
      failed: m.failed,
      findings: loop,
      concerns: w.concerns ?? null,
      history: w.rounds ?? [],
    });
}

export async function decide(ctx: NodeCtx, rec: StartedItem): Promise<NodeOutcome | null> {
  const w = rec.walk;
  const { m } = await current(ctx, rec, w);
  if (
    m.failed.length > 0 &&
    m.failed.every((f) => f.kind === 'builtin') &&
    m.findings.every((f) => f.synthetic)
  ) {
    return stopOf(
      'failed',
      `${ctx.node.id}: only builtin task(s) failed (${m.failed.map((f) => f.task).join(', ')}) and no findings were reported; no commit can fix that`,
      m.failed[0]!.session,
    );
  }
  const judge = ctx.node.fix_loop?.judge && (w.cycles ?? 0) > 0;
  await move(
    ctx,
    (x) => ({ ...x, phase: judge ? 'judge' : 'judged', step: 0, step_at: null, concerns: null }),
    [],
  );
  return null;
}

export async function judge(ctx: NodeCtx, rec: StartedItem, stuck: Stuck): Promise<NodeOutcome | null> {
  const w = rec.walk;
  const task = ctx.node.fix_loop?.judge;
  if (!task) throw new Error(`node ${ctx.node.id} has no fix_loop judge to run`);
  const { m, loop } = await current(ctx, rec, w);
  const r = await runStep(ctx.h, {
    rec: rec,
    repo: ctx.repo,
    chain: ctx.chain,
    node: ctx.node,
    step: stepOf(task),
    brief: briefFor(ctx, rec, w, m, loop),
  });
  if (r.kind === 'halt') return r;
  if (r.kind === 'refuse') return stopOf(r.stop ?? 'config', r.reason, r.session ?? null);
  const hard = hardStop(r.runs);
  if (hard) return hard;
  const s = r.runs[0]!.session;
  const verdict = typeof s?.result?.verdict === 'string' ? s.result.verdict : null;
  const concerns = typeof s?.result?.concerns === 'string' ? s.result.concerns : null;
  // A downgrade needs every task to have passed; an unknown answer goes on with the loop.
  const asked = verdictOf(judgeVerdicts, s?.result);
  const applied: JudgeVerdict =
    asked === 'stop_downgrade' && m.failed.length > 0 ? 'continue' : (asked ?? 'continue');
  await move(
    ctx,
    (x) => (applied === 'continue' ? { ...x, phase: 'judged', step: 0, step_at: null, concerns } : x),
    [
      {
        type: 'judge_verdict',
        payload: { cycle: w.cycles ?? 0, verdict, applied, concerns, session: s?.id ?? null },
      },
    ],
  );
  if (applied === 'stop_needs_human')
    return stuck(`${ctx.node.id}.fix_loop: the judge asked for a person${concerns ? `: ${concerns}` : ''}`);
  if (applied === 'stop_downgrade') {
    return {
      kind: 'completed',
      payload: { downgraded: true, unresolved: loop.map((f) => f.tag), ...(concerns ? { concerns } : {}) },
    };
  }
  return null;
}

export async function judged(ctx: NodeCtx, rec: StartedItem, stuck: Stuck): Promise<NodeOutcome | null> {
  const w = rec.walk;
  const lim = limits(ctx, rec);
  const cycles = w.cycles ?? 0;
  const now = ctx.h.clock.now();
  const started = w.loop_started_at ? Date.parse(w.loop_started_at) : now;
  if (cycles >= lim.attempts.value || now - started >= lim.wall_clock_s.value * 1000) {
    return stuck(`${ctx.node.id}.fix_loop exhausted after ${cycles} fix cycle(s)`);
  }
  const why = stuckReason(w.rounds ?? []);
  if (why) return stuck(`${ctx.node.id}.fix_loop is stuck: ${why}`);
  await move(ctx, (x) => ({ ...x, phase: 'repair', cycles: cycles + 1, step: 0, step_at: null }), [
    {
      type: 'fix_cycle_started',
      payload: {
        cycle: cycles + 1,
        attempts: lim.attempts.value,
        wall_clock_s: lim.wall_clock_s.value,
        findings: (w.rounds?.at(-1)?.findings ?? []).map((f) => f.tag),
      },
    },
  ]);
  return null;
}

/** A repair that never really ran is not counted: the cycle is refunded and decided again later. */
async function refund(ctx: NodeCtx, w: Walk, reason: string): Promise<void> {
  await move(
    ctx,
    (x) => ({ ...x, phase: 'judged', cycles: Math.max(0, (x.cycles ?? 1) - 1), step: 0, step_at: null }),
    [{ type: 'fix_cycle_refunded', payload: { cycle: w.cycles ?? 0, reason } }],
  );
}

/**
 * The members a repair is for: those whose runs failed or reported the loop's findings, when every
 * one of them came from a member's run; undefined (every member) when anything came from the root.
 */
export function repairMembers(
  m: Measurement,
  loop: Measurement['findings'],
): ReadonlySet<string> | undefined {
  const from = [...m.failed, ...loop].map((x) => x.member);
  const named = from.filter((x): x is string => x !== undefined);
  if (from.length === 0 || named.length < from.length) return undefined;
  return new Set(named);
}

export async function repair(ctx: NodeCtx, rec: StartedItem): Promise<NodeOutcome | null> {
  const loop = ctx.node.fix_loop;
  if (!loop) throw new Error(`node ${ctx.node.id} has no fix_loop to repair with`);
  for (let i = rec.walk.step; i < loop.steps.length; i++) {
    const cur = await ctx.h.item(ctx.id);
    const w = cur.walk;
    const { m, loop: findings } = await current(ctx, cur, w);
    const members = repairMembers(m, findings);
    const r = await runStep(ctx.h, {
      rec: cur,
      repo: ctx.repo,
      chain: ctx.chain,
      node: ctx.node,
      step: loop.steps[i]!,
      brief: briefFor(ctx, cur, w, m, findings),
      ...(members ? { members } : {}),
    });
    if (r.kind === 'halt') {
      // Paused or ended by a person: the repair did not really run. A server going down is not that:
      // its tasks keep running and are adopted after the restart.
      const now = await ctx.h.item(ctx.id);
      if (now.status !== 'running')
        await refund(ctx, w, now.status === 'paused' ? 'paused' : `stopped: ${now.stop_kind ?? ''}`);
      return r;
    }
    if (r.kind === 'refuse') {
      await refund(ctx, w, `refused to start: ${r.reason}`);
      return stopOf(r.stop ?? 'config', r.reason, r.session ?? null);
    }
    const hard = hardStop(r.runs);
    if (hard?.kind === 'stop') {
      if (hard.stop !== 'question') await refund(ctx, w, `${hard.stop}: ${hard.reason}`);
      return hard;
    }
    // A rebase or forge task of the repair that failed means the repair could not do its work (a
    // conflict, a forge call refused): the cycle is refunded, and a person looks, since running the
    // same cycle again would fail the same way. Tests run inside a repair are different: their
    // failure is the repair's result, measured like any other.
    const broken = r.runs.find(
      (x) =>
        x.status === 'failed' &&
        (x.task.kind === 'forge' || (x.task.kind === 'builtin' && x.task.ref === 'jig.mr_rebase')),
    );
    if (broken) {
      await refund(ctx, w, `${broken.task.path} failed`);
      return stopOf(
        isConflict(broken.session) ? 'conflict' : 'failed',
        `the repair could not finish: ${failureReason(broken)} (fix cycle refunded)`,
        broken.session?.id ?? null,
      );
    }
    const failed = r.runs.some((x) => x.status === 'failed');
    await move(ctx, (x) => ({ ...x, step: failed ? loop.steps.length : i + 1, step_at: null }), []);
    if (failed) break;
  }
  await move(ctx, remeasure, []);
  return null;
}
