import { DEFAULT_HARNESS } from '../../contract/config/harnesses.js';
import { ESCALATION_NODE } from '../../contract/verdicts.js';
import { stamp } from '../clock.js';
import type { PolicyFile } from '../../contract/config/policy.js';
import { JigError } from '../../contract/errors.js';
import type { EventActor } from '../../contract/events.js';
import type { ModelAgentTask } from '../../core/chain/model.js';
import { runningSessions, sessionsOf, type SessionRecord } from '../../store/sessions.js';
import type { ItemRecord } from '../../store/work-items.js';
import { wrongStatus } from './move-guards.js';
import { patchWalk } from '../../store/item-walk.js';
import { passed } from '../../core/chain/walk-rules.js';
import { nodeSettings } from '../../core/items/node-settings.js';
import type { PersonMoves } from './person-moves.js';
import { itemOf, policyOf, type EngineResources } from './resources.js';

/** The node name escalation sessions are recorded under: they belong to no node of the chain. */
export { ESCALATION_NODE };
export const ESCALATION_PATH = 'escalation';

const GRANTS_DEFAULT = ['git-commit', 'git-rebase', 'git-push'];
/** policy.yaml's default `auto_escalate_stuck_cap`, for an item with no policy. */
const AUTO_ESCALATE_CAP = 3;

/**
 * The harness an escalation turn runs on: policy's `escalation_harness` (chain policy first, then
 * policy.yaml defaults); `item` means the harness of the item's last agent session; else claude.
 */
export function escalationHarness(
  chainPolicy: { escalation_harness?: string } | undefined,
  policy: PolicyFile | null,
  sessions: readonly SessionRecord[],
): string {
  const named = chainPolicy?.escalation_harness ?? policy?.defaults?.escalation_harness ?? DEFAULT_HARNESS;
  if (named !== 'item') return named;
  return sessions.filter((s) => s.harness !== null).at(-1)?.harness ?? DEFAULT_HARNESS;
}

export function escalationGrants(policy: PolicyFile | null): string[] {
  return policy?.defaults?.escalation_grants ?? GRANTS_DEFAULT;
}

/**
 * The escalation turn as an agent task: it reads why the item stopped and what the person (or Jig,
 * for a stuck item) asks, may change the worktree, and can ask Jig to retry the item by answering
 * `suggested_action: {action: "retry"}` in its result file.
 */
export function escalationTask(rec: ItemRecord, harness: string, message: string): ModelAgentTask {
  const stop = rec.stop_kind
    ? `It stopped (${rec.stop_kind}) at ${rec.current_node ?? 'its start'}: ${rec.stop_reason ?? ''}`
    : `It is ${rec.status}.`;
  const prompt = [
    `You are helping with a work item that stopped and needs help. ${stop}`,
    `What you are asked: ${message}`,
    'Investigate in this worktree (read the code, run commands, look at the git log), fix what is in your reach, and commit any change you make.',
    'In the result file, say what you found and did in "concerns". When the item can go on, add "suggested_action": {"action": "retry", "reason": "…"} and Jig retries the node it stopped on; otherwise a person decides.',
  ].join('\n\n');
  return { id: ESCALATION_PATH, path: ESCALATION_PATH, kind: 'agent', harness, prompt };
}

/** An escalation turn that started: its session, harness, and the earlier turn it goes on from. */
export interface EscalationStarted {
  session: string;
  harness: string;
  continues: string | null;
}

export type EscalationHost = Pick<
  EngineResources,
  'store' | 'events' | 'repos' | 'log' | 'workers' | 'clock' | 'config'
>;

/** Escalation turns: a person's (or, for a stuck item, Jig's) message to an agent on a stopped item. */
export class Escalations {
  constructor(
    private readonly h: EscalationHost,
    /** An escalation that asks for it reruns the node the item stopped on. */
    private readonly moves: Pick<PersonMoves, 'retry'>,
  ) {}

  /**
   * Starts an escalation turn on a stopped item: an agent that reads why it stopped and what it is
   * asked, works in the worktree, and may ask Jig to retry. Answers once the agent has started.
   * Refused (409) for an item a spend cap stopped: the cap must be raised first.
   */
  async escalate(id: string, message: string, by: EventActor, newThread = false): Promise<EscalationStarted> {
    const rec = await itemOf(this.h, id);
    if (rec.status !== 'stopped') {
      throw wrongStatus(rec, 'only a stopped item can be escalated', ['stopped']);
    }
    if (rec.stop_kind === 'budget') {
      throw new JigError('escalation_spend_cap', { reason: rec.stop_reason ?? 'a spend cap' });
    }
    if ((await runningSessions(this.h.store.db, id)).some((s) => s.node === ESCALATION_NODE)) {
      throw new JigError('escalation_running', {}, { status: rec.status });
    }
    const repo = this.h.repos.find(rec.repo);
    if (!repo || !rec.worktree_path || !rec.chain_definition) {
      throw new JigError('item_not_started', {}, { status: rec.status });
    }
    const chain = rec.chain_definition;
    const sessions = await sessionsOf(this.h.store.db, id);
    const harness = escalationHarness(chain.policy, policyOf(this.h, rec), sessions);
    const task = escalationTask(rec, harness, message);
    // The conversation goes on where the last turn left it (its CLI session resumed) unless a new
    // thread is asked for, or that turn ran on another harness or its CLI told no session id.
    const last = sessions.filter((s) => s.node === ESCALATION_NODE).at(-1);
    const continues = !newThread && last?.cli_session_id && last.harness === harness ? last : null;
    await this.h.events.record(
      id,
      'escalation_message',
      { message, harness, ...(continues ? { continues: continues.id } : {}) },
      { by, node: rec.current_node },
    );
    return new Promise((resolve, reject) => {
      let started = false;
      void this.h.workers
        .runAgent({
          rec,
          repo,
          chain,
          policy: policyOf(this.h, rec),
          node: ESCALATION_NODE,
          task,
          timeCapS: null,
          ...(continues ? { continues } : {}),
          onStart: (s) => {
            started = true;
            resolve({ session: s.id, harness, continues: continues?.id ?? null });
          },
        })
        .then(async (out) => {
          if (out.kind === 'refuse') {
            if (!started)
              reject(new JigError('escalation_refused', { reason: out.reason }, { status: rec.status }));
            return;
          }
          await this.afterEscalation(id, out.session);
        })
        .catch((err: unknown) => {
          this.h.log.error({ err, item: id }, 'escalation failed');
          if (!started) reject(err instanceof Error ? err : new Error(String(err)));
        });
    });
  }

  /** The turn ended: recorded, and when it asks for a retry and the item still waits, retried. */
  private async afterEscalation(id: string, s: SessionRecord): Promise<void> {
    const action = (s.result?.suggested_action as { action?: string } | undefined)?.action ?? null;
    await this.h.events.record(id, 'escalation_finished', {
      session: s.id,
      status: s.status,
      ...(typeof s.result?.concerns === 'string' ? { concerns: s.result.concerns } : {}),
      ...(action ? { suggested_action: action } : {}),
    });
    const rec = await itemOf(this.h, id);
    if (action === 'retry' && rec.status === 'stopped' && rec.stop_kind !== 'gate' && passed(s.status)) {
      await this.moves.retry(id, 'agent');
    }
  }

  /** Ends the running escalation turn of an item. */
  async stop(id: string): Promise<{ stopped: string }> {
    const rec = await itemOf(this.h, id);
    const live = (await runningSessions(this.h.store.db, id)).find((s) => s.node === ESCALATION_NODE);
    if (!live) {
      throw new JigError('escalation_not_running', {}, { status: rec.status });
    }
    await this.h.workers.end(live);
    return { stopped: live.id };
  }

  /**
   * A stuck item gets an escalation turn by itself (policy `auto_escalate_stuck`), after
   * `auto_escalate_delay_s`, at most `auto_escalate_stuck_cap` times per item.
   */
  async autoEscalate(id: string): Promise<void> {
    const rec = await itemOf(this.h, id);
    const policy = policyOf(this.h, rec);
    // The node the item is stuck at may say otherwise than policy (its node override).
    const node = rec.current_node === null ? {} : nodeSettings(rec.node_overrides, rec.current_node);
    const on = node.auto_escalate_stuck ?? policy?.auto_escalate_stuck ?? false;
    if (rec.status !== 'stopped' || rec.stop_kind !== 'stuck') return;
    if (!on) {
      // Said only when the node's override turned it off: a person reading the item learns why.
      if (node.auto_escalate_stuck === false && rec.current_node !== null)
        await this.h.events.record(
          id,
          'work_item_auto_escalate_skipped',
          { node: rec.current_node },
          { node: rec.current_node },
        );
      return;
    }
    const used = rec.walk?.auto_escalations ?? 0;
    const cap = policy?.auto_escalate_stuck_cap ?? AUTO_ESCALATE_CAP;
    const delay = node.auto_escalate_delay_s ?? policy?.auto_escalate_delay_s ?? 0;
    if (used >= cap) {
      await this.h.events.record(id, 'work_item_auto_escalate_capped', { cap }, { node: rec.current_node });
      return;
    }
    await patchWalk(this.h.store.db, id, (w) => ({ ...w, auto_escalations: used + 1 }), stamp(this.h.clock));
    const go = (): void => {
      void this.escalate(
        id,
        `Jig stopped this item as stuck: ${rec.stop_reason ?? ''}. Find out why and fix it if you can.`,
        'jig',
      ).catch((err: unknown) => this.h.log.warn({ err, item: id }, 'automatic escalation did not start'));
    };
    if (delay > 0) this.h.clock.setTimer(go, delay * 1000);
    else go();
  }
}
