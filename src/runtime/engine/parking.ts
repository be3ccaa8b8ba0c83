import { getItem, updateItem } from '../../store/work-items.js';
import type { TimerHandle } from '../clock.js';
import { itemOf, policyOf, type EngineResources } from './resources.js';
import type { Slots } from './slots.js';
import type { WalkRequests } from './walk-requests.js';
import { hold } from './wall-clock.js';

/** Items parked on rate limits, and the timers that try them again at the reset. */
export class Parking {
  private readonly timers = new Map<string, TimerHandle>();

  constructor(
    private readonly h: EngineResources,
    private readonly slots: Pick<Slots, 'claim'>,
    private readonly walks: WalkRequests,
  ) {}

  /**
   * An item stopped because every launch was rate limited waits until the earliest reset, then
   * tries the step again by itself — at most `rate_limit_retries` times in a node, then it waits
   * for a person.
   */
  async park(id: string): Promise<void> {
    const rec = await itemOf(this.h, id);
    const w = rec.walk;
    const until = w?.parked_until;
    if (!w || !until) return;
    const used = w.rate_limit_retries ?? 0;
    const max = policyOf(this.h, rec)?.rate_limit_retries ?? 5;
    if (used >= max) {
      await this.h.events.transact(async (uow) => {
        await updateItem(uow.db, id, {
          // No longer waiting on a reset but on a person: the wall clocks hold.
          walk: hold({ ...w, parked_until: null }, this.h.clock.now()),
          stop_reason: `${rec.stop_reason ?? 'rate limited'}; ${max} automatic retr${max === 1 ? 'y' : 'ies'} used, retry it by hand`,
        });
      });
      return;
    }
    await this.h.events.transact(async (uow) => {
      await updateItem(uow.db, id, { walk: { ...w, rate_limit_retries: used + 1 } });
      await uow.emit({
        work_item_id: id,
        type: 'work_item_parked',
        by: 'jig',
        node: rec.current_node,
        payload: { until, retry: used + 1, of: max },
      });
    });
    this.arm(id, until);
  }

  arm(id: string, until: string): void {
    const old = this.timers.get(id);
    if (old) this.h.clock.clearTimer(old);
    // A timer holds at most ~24.8 days; a longer wait re-arms when it fires.
    const wait = Math.min(Math.max(0, Date.parse(until) - this.h.clock.now()), 2 ** 31 - 1);
    const t = this.h.clock.setTimer(() => {
      this.timers.delete(id);
      if (Date.parse(until) > this.h.clock.now()) return this.arm(id, until);
      return this.h.queues
        .serial(id, () => this.unpark(id))
        .catch((err: unknown) => this.h.log.error({ err, item: id }, 'unparking failed'));
    }, wait);
    this.timers.set(id, t);
  }

  private async unpark(id: string): Promise<void> {
    const rec = await getItem(this.h.store.db, id);
    const walk = rec?.walk;
    if (!rec || rec.status !== 'stopped' || rec.stop_kind !== 'rate_limit' || !walk?.parked_until) return;
    await this.h.events.transact(async (uow) => {
      await updateItem(uow.db, id, { walk: { ...walk, parked_until: null } });
      await uow.emit({
        work_item_id: id,
        type: 'work_item_unparked',
        by: 'jig',
        node: rec.current_node,
        payload: {},
      });
      await this.slots.claim(uow, rec, 'jig');
    });
    if ((await itemOf(this.h, id)).status === 'running') this.walks.walk(id);
  }

  close(): void {
    for (const t of this.timers.values()) this.h.clock.clearTimer(t);
    this.timers.clear();
  }
}
