import { JigError } from '../../contract/errors.js';
import { ASK_TIMEOUT_S, type AskState, type PermissionAsk } from '../../contract/permission-asks.js';
import type { Store } from '../../store/database.js';
import { decideAsk, getAsk, insertAsk, listAsks, overdueAsks } from '../../store/permission-asks.js';
import type { ItemRecord } from '../../store/work-items.js';
import { stamp, type Clock } from '../clock.js';
import type { EventLog } from '../events/event-log.js';
import { newReviewId } from '../review/threads-service.js';

/** The longest a read waits for an answer in one request (the caller asks again). */
export const ASK_WAIT_MAX_S = 20;

/**
 * Permission asks: a worker's tool call its launch neither granted nor denied, waiting for a
 * person. The worker asks (`x-jig-work-item` naming its own item) and waits on the ask; a person
 * allows or denies it; an ask nobody answers in ASK_TIMEOUT_S counts as denied (expired), so an
 * unattended agent is never left hanging.
 */
export class PermissionAsks {
  private readonly waiters = new Map<string, Set<() => void>>();

  constructor(
    private readonly d: {
      store: Store;
      events: EventLog;
      clock: Clock;
      record: (id: string) => Promise<ItemRecord>;
    },
  ) {}

  private wake(askId: string): void {
    for (const w of this.waiters.get(askId) ?? []) w();
    this.waiters.delete(askId);
  }

  /** Answers every waiting read (the server is closing: they ask again elsewhere). */
  close(): void {
    for (const id of [...this.waiters.keys()]) this.wake(id);
  }

  /** Pending asks past their time become expired (a denial), with their event. */
  private async expireOverdue(): Promise<void> {
    const now = stamp(this.d.clock);
    for (const id of await overdueAsks(this.d.store.db, now)) {
      if (!(await decideAsk(this.d.store.db, id, 'expired', null, now))) continue;
      const a = await getAsk(this.d.store.db, id);
      if (a) await this.emitDecision(a, 'jig');
      this.wake(id);
    }
  }

  private async emitDecision(a: PermissionAsk, by: 'human' | 'jig'): Promise<void> {
    await this.d.events.transact(async (uow) => {
      await uow.emit({
        work_item_id: a.work_item_id,
        type: 'permission_decision',
        by,
        node: null,
        payload: {
          ask: a.id,
          tool_name: a.tool_name,
          decision: a.state === 'allowed' ? 'allow' : 'deny',
          expired: a.state === 'expired',
          ...(a.note ? { note: a.note } : {}),
        },
      });
    });
  }

  /** The item a worker asks for: its own (`x-jig-work-item`), and running. */
  async workerItem(id: string, worker: string | undefined): Promise<ItemRecord> {
    const rec = await this.d.record(id);
    if (worker !== rec.id) throw new JigError('ask_not_worker', { id: rec.id });
    if (rec.status !== 'running')
      throw new JigError('item_wrong_status', {
        state: rec.status,
        rule: 'only a running item asks for a permission',
      });
    return rec;
  }

  async ask(
    id: string,
    b: {
      tool_name: string;
      input: Record<string, unknown>;
      tool_use_id?: string | undefined;
      session?: string | undefined;
    },
    worker: string | undefined,
  ): Promise<PermissionAsk> {
    const rec = await this.workerItem(id, worker);
    const now = this.d.clock.now();
    const a: PermissionAsk = {
      id: newReviewId('p'),
      work_item_id: rec.id,
      session: b.session ?? null,
      tool_name: b.tool_name,
      input: b.input,
      tool_use_id: b.tool_use_id ?? null,
      state: 'pending',
      note: null,
      created_at: new Date(now).toISOString(),
      decided_at: null,
      expires_at: new Date(now + ASK_TIMEOUT_S * 1000).toISOString(),
    };
    await insertAsk(this.d.store.db, a);
    await this.d.events.transact(async (uow) => {
      await uow.emit({
        work_item_id: rec.id,
        type: 'permission_asked',
        by: 'agent',
        node: rec.current_node,
        payload: { ask: a.id, tool_name: a.tool_name, ...(a.session ? { session: a.session } : {}) },
      });
    });
    return a;
  }

  async list(where: { item?: string; state?: AskState }): Promise<{ asks: PermissionAsk[] }> {
    if (where.item !== undefined) await this.d.record(where.item);
    await this.expireOverdue();
    return { asks: await listAsks(this.d.store.db, where) };
  }

  /** One ask; with `waitS`, held until it is decided or that long passes (a long poll). */
  async get(id: string, askId: string, waitS = 0): Promise<PermissionAsk> {
    await this.expireOverdue();
    const a = await getAsk(this.d.store.db, askId);
    if (!a || a.work_item_id !== id)
      throw new JigError('not_found', { what: `permission ask ${askId} of item ${id}` });
    if (a.state !== 'pending' || waitS <= 0) return a;
    // Two timers: the request's own wait (real time: it is about HTTP), and the ask's expiry on the
    // runtime's clock (tests move it), whichever comes first.
    const untilExpiry = Math.max(0, Date.parse(a.expires_at) - this.d.clock.now() + 1);
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.d.clock.clearTimer(expiry);
        this.waiters.get(askId)?.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.min(waitS, ASK_WAIT_MAX_S) * 1000);
      const expiry = this.d.clock.setTimer(done, untilExpiry);
      const set = this.waiters.get(askId) ?? new Set<() => void>();
      set.add(done);
      this.waiters.set(askId, set);
    });
    await this.expireOverdue();
    return (await getAsk(this.d.store.db, askId)) ?? a;
  }

  async answer(
    id: string,
    askId: string,
    b: { decision: 'allow' | 'deny'; note?: string | undefined },
    worker: string | undefined,
  ): Promise<PermissionAsk> {
    const rec = await this.d.record(id);
    if (worker === rec.id)
      throw new JigError('worker_refused', { what: 'answer a permission ask', id: rec.id });
    const current = await this.get(id, askId);
    if (current.state !== 'pending') throw new JigError('ask_decided', { ask: askId, state: current.state });
    const state = b.decision === 'allow' ? 'allowed' : 'denied';
    if (!(await decideAsk(this.d.store.db, askId, state, b.note || null, stamp(this.d.clock)))) {
      const now = await getAsk(this.d.store.db, askId);
      throw new JigError('ask_decided', { ask: askId, state: now?.state ?? 'decided' });
    }
    const decided = (await getAsk(this.d.store.db, askId)) ?? current;
    await this.emitDecision(decided, 'human');
    this.wake(askId);
    return decided;
  }
}
