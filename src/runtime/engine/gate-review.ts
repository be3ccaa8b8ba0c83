import { reviewVerdicts, verdictOf } from '../../contract/verdicts.js';
import { own } from '../../core/json/own.js';
import { autoGateOn } from '../../core/items/auto-gate.js';
import { stamp, type Clock } from '../clock.js';
import type { StopKind } from '../../contract/item-status.js';
import type { PolicyFile } from '../../contract/config/policy.js';
import type { RepoEntry } from '../../contract/config/repos.js';
import type { ModelAgentTask, ModelNode, ResolvedChain } from '../../core/chain/model.js';
import type { ItemRecord } from '../../store/work-items.js';
import type { EventLog } from '../events/event-log.js';
import type { Workers } from '../workers/workers.js';
import { patchWalk } from '../../store/item-walk.js';
import { passed } from '../../core/chain/walk-rules.js';

/** What the reviewer's verdict asks of the gate; the engine applies it (a worker never decides). */
export type ReviewOutcome =
  | { kind: 'approve'; session: string }
  | { kind: 'reject'; note: string; session: string }
  | { kind: 'again' }
  | { kind: 'person'; note: string }
  | { kind: 'stop'; stop: StopKind; reason: string }
  | { kind: 'halt' };

/** Items a person filed get the reviewer unless filed with `auto_gate: false`; the rest wait for a person unless filed with it on. */
export function autoReviewApplies(
  rec: ItemRecord,
  gate: ModelNode,
  policy: PolicyFile | null,
): ModelAgentTask | null {
  const task = gate.kind === 'gate' ? gate.auto_review : undefined;
  if (!task || !autoGateOn(rec)) return null;
  const used = own(rec.walk?.reviews, gate.id) ?? 0;
  return used < (policy?.auto_review_attempts ?? 1) ? task : null;
}

/**
 * Runs the gate's reviewer agent once (the attempt is counted before it starts, so a restart never
 * runs more than `auto_review_attempts`) and reads its verdict: `approve`, `reject` with concerns
 * (they become the steer of the node it re-enters), `fixed` (it repaired the document; review
 * again while attempts remain), `undecided` or anything else (a person decides, seeing why).
 */
export async function runAutoReview(d: {
  rec: ItemRecord;
  repo: RepoEntry;
  chain: ResolvedChain;
  policy: PolicyFile | null;
  gate: ModelNode;
  task: ModelAgentTask;
  events: EventLog;
  db: Parameters<typeof patchWalk>[0];
  workers: Pick<Workers, 'runAgent'>;
  clock: Clock;
  stillRunning: () => Promise<boolean>;
}): Promise<ReviewOutcome> {
  const { rec, gate } = d;
  const attempt = (own(rec.walk?.reviews, gate.id) ?? 0) + 1;
  await d.events.transact(async (uow) => {
    await patchWalk(
      uow.db,
      rec.id,
      (w) => ({ ...w, reviews: { ...w.reviews, [gate.id]: attempt } }),
      stamp(d.clock),
    );
    await uow.emit({
      work_item_id: rec.id,
      type: 'gate_auto_review_started',
      by: 'jig',
      node: gate.id,
      payload: { gate: gate.id, attempt },
    });
  });
  const out = await d.workers.runAgent({
    rec,
    repo: d.repo,
    chain: d.chain,
    policy: d.policy,
    node: gate.id,
    task: d.task,
    timeCapS: null,
  });
  if (!(await d.stillRunning())) return { kind: 'halt' };
  if (out.kind === 'refuse') return { kind: 'stop', stop: out.stop, reason: out.reason };
  const s = out.session;
  // Over a cap (told at its end, or crossed as it ran): a budget stop, not a question for a person.
  if (s.status === 'budget_exceeded')
    return { kind: 'stop', stop: 'budget', reason: s.note ?? 'a spend cap was crossed' };
  const verdict = typeof s.result?.verdict === 'string' ? s.result.verdict : null;
  const concerns = typeof s.result?.concerns === 'string' ? s.result.concerns.trim() : '';
  await d.events.record(
    rec.id,
    'gate_auto_review_finished',
    { gate: gate.id, session: s.id, status: s.status, verdict, ...(concerns ? { concerns } : {}) },
    { node: gate.id },
  );
  const ok = passed(s.status);
  const said = ok ? verdictOf(reviewVerdicts, s.result) : null;
  if (said === 'approve') return { kind: 'approve', session: s.id };
  if (said === 'reject' && concerns) return { kind: 'reject', note: concerns, session: s.id };
  if (said === 'fixed') {
    const left = attempt < (d.policy?.auto_review_attempts ?? 1);
    if (left) return { kind: 'again' };
  }
  const why = ok
    ? `the auto review answered ${verdict ?? 'no verdict'}${concerns ? `: ${concerns}` : ''}`
    : `the auto review ended ${s.status}${s.note ? ` (${s.note})` : ''}`;
  return { kind: 'person', note: why };
}
