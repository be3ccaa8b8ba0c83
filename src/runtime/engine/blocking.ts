import { stamp } from '../clock.js';
import { JigError } from '../../contract/errors.js';
import type { EventActor } from '../../contract/events.js';
import type { LinkedItem } from '../../contract/items/dependencies.js';
import { hold } from '../../core/chain/walk-state.js';
import { blockedItemIds, dependenciesOf, dependentsOf, dropDependencies } from '../../store/dependencies.js';
import { getItem, updateItem, type ItemRecord } from '../../store/work-items.js';
import type { UnitOfWork } from '../events/event-log.js';
import { rowOf, unchanged } from './move-guards.js';
import { itemOf, type EngineResources } from './resources.js';
import type { Slots } from './slots.js';
import type { WalkRequests } from './walk-requests.js';

const unfinished = (deps: LinkedItem[]): LinkedItem[] => deps.filter((d) => d.status !== 'completed');
const neverCompletes = (d: LinkedItem): boolean => d.status === 'cancelled' || d.status === 'abandoned';

/** What a blocked item whose dependency ended without completing says to the person it needs. */
function deadEndReason(id: string, dead: LinkedItem[]): string {
  const names = dead.map((d) => `${d.id} (${d.title}) was ${d.status}`).join('; ');
  const only = dead.length === 1 ? dead[0] : undefined;
  const one = only ? ` --dependency ${only.id}` : '';
  return `it comes after items that will never complete: ${names}. Drop ${dead.length === 1 ? 'it' : 'them'} (Unblock, or \`jig item unblock ${id}${one}\`) to go on, or cancel this item.`;
}

/** The item's answer to `unblock`: what was dropped and what it still waits on. */
export interface Unblocked {
  rec: ItemRecord;
  dropped: string[];
  waitingOn: LinkedItem[];
}

/**
 * Items that come after others (`after`): a start while one of them has not completed leaves the
 * item `blocked` (no slot, no worktree); the completion of the last starts it through the usual
 * claim. Decided in the same transactions as the moves it guards, and looked at again each time a
 * dependency ends and when the engine starts leading, so a crash between a completion and the
 * start it allows is made good at the next start.
 */
export class Blocking {
  constructor(
    private readonly r: EngineResources,
    private readonly slots: Pick<Slots, 'claim'>,
    private readonly walks: WalkRequests,
  ) {}

  /**
   * Inside a start's transaction (resume, start, retry): blocks the item and answers what it waits
   * on, or answers null when everything it comes after has completed (the start goes on to claim a
   * slot). A dependency that will never complete refuses the start: it could never go on by itself.
   */
  async gate(uow: UnitOfWork, rec: ItemRecord, by: EventActor, note?: string): Promise<LinkedItem[] | null> {
    const open = unfinished(await dependenciesOf(uow.db, rec.id));
    if (open.length === 0) return null;
    const dead = open.find(neverCompletes);
    if (dead) {
      throw new JigError(
        'dependency_ended',
        {
          dependency: dead.id,
          title: dead.title,
          state: dead.status,
          how: `drop it first (POST /api/work-items/${rec.id}/unblock, \`jig item unblock ${rec.id} --dependency ${dead.id}\`)`,
        },
        { dependency: dead.id, dependency_status: dead.status },
      );
    }
    await unchanged(uow, rec);
    const cur = await rowOf(uow, rec.id);
    await updateItem(uow.db, rec.id, {
      status: 'blocked',
      queued_at: null,
      ...(cur.walk ? { walk: hold(cur.walk, this.r.clock.now()) } : {}),
      // A blocked item needs nobody: the stop it was retried from is over.
      gate_request: null,
      stop_kind: null,
      stop_reason: null,
      suggested_action: null,
      ...(note ? { steer: note } : {}),
      updated_at: stamp(this.r.clock),
    });
    await uow.emit({
      work_item_id: rec.id,
      type: 'work_item_blocked',
      by,
      payload: { waiting_on: open, ...(note ? { note } : {}) },
    });
    return open;
  }

  /** After an item ended (completed, cancelled, abandoned): its blocked dependents are looked at. */
  async ended(id: string): Promise<void> {
    const dependents = await dependentsOf(this.r.store.db, id);
    for (const d of dependents) if (d.status === 'blocked') await this.settleOrLog(d.id, id);
  }

  /** A blocked item whose `after` a person changed is looked at again. */
  changed(id: string): Promise<void> {
    return this.settle(id);
  }

  /** Every blocked item looked at again (the engine starts leading: a completion may be unheard). */
  async sweep(): Promise<void> {
    for (const id of await blockedItemIds(this.r.store.db)) await this.settleOrLog(id);
  }

  /** One item's failure is logged and the others are still looked at; the next lead sweeps again. */
  private async settleOrLog(id: string, ended?: string): Promise<void> {
    await this.settle(id, ended).catch((err: unknown) => {
      if (!this.r.life.closed) this.r.log.error({ err, item: id }, 'looking at a blocked item failed');
    });
  }

  /**
   * A blocked item with nothing left to wait on starts; one whose dependency will never complete
   * says so to a person (stop kind `dependency`, shown under Needs you) and stays blocked.
   */
  private async settle(id: string, ended?: string): Promise<void> {
    const run = await this.r.events.transact(async (uow) => {
      const rec = await getItem(uow.db, id);
      if (!rec || rec.status !== 'blocked') return false;
      return this.settleIn(uow, rec, ended ? { ended } : {});
    });
    if (run) this.walks.walk(id);
  }

  /** The settle inside a transaction; answers whether the item now runs (its walk is to be kicked). */
  private async settleIn(
    uow: UnitOfWork,
    rec: ItemRecord,
    why: { ended?: string; dropped?: string[] },
    by: EventActor = 'jig',
  ): Promise<boolean> {
    const open = unfinished(await dependenciesOf(uow.db, rec.id));
    if (open.length === 0) {
      const status = await this.slots.claim(uow, rec, by);
      await uow.emit({
        work_item_id: rec.id,
        type: 'work_item_unblocked',
        by,
        payload: {
          status,
          ...(why.ended ? { completed: why.ended } : {}),
          ...(why.dropped ? { dropped: why.dropped } : {}),
        },
      });
      return status === 'running';
    }
    const dead = open.filter(neverCompletes);
    const ended = dead.find((d) => d.id === why.ended);
    // Said once per dependency: an abandon after its cancel changes the reason's words only (the
    // reason names each dead dependency by id, as deadEndReason writes it).
    const told =
      ended !== undefined &&
      rec.stop_kind === 'dependency' &&
      (rec.stop_reason ?? '').includes(`${ended.id} (`);
    if (ended && !told && (ended.status === 'cancelled' || ended.status === 'abandoned')) {
      await uow.emit({
        work_item_id: rec.id,
        type: 'dependency_ended',
        by: 'jig',
        payload: { dependency: ended.id, status: ended.status },
      });
    }
    const reason = dead.length > 0 ? deadEndReason(rec.id, dead) : null;
    if (reason !== rec.stop_reason) {
      await updateItem(uow.db, rec.id, {
        stop_kind: reason ? 'dependency' : null,
        stop_reason: reason,
        suggested_action: reason ? { action: 'unblock', reason } : null,
        updated_at: stamp(this.r.clock),
      });
      // It needs a person now: said as every stop for a person is, so notifications reach them.
      if (reason && rec.stop_kind !== 'dependency') {
        await uow.emit({
          work_item_id: rec.id,
          type: 'work_item_needs_human',
          by: 'jig',
          payload: { kind: 'dependency', reason },
        });
      }
    }
    return false;
  }

  /**
   * A person drops what the item comes after (one dependency, or all): a blocked item with nothing
   * left to wait on starts. Naming an item it does not come after is refused.
   */
  async unblock(id: string, dependency: string | undefined, by: EventActor): Promise<Unblocked> {
    let run = false;
    const dropped = await this.r.events.transact(async (uow) => {
      const rec = await rowOf(uow, id);
      const deps = await dependenciesOf(uow.db, id);
      if (dependency !== undefined && !deps.some((d) => d.id === dependency)) {
        const list = deps.map((d) => d.id).join(', ') || 'nothing';
        throw new JigError('not_a_dependency', { dependency, dependencies: list }, { dependency });
      }
      const gone = await dropDependencies(uow.db, id, dependency === undefined ? undefined : [dependency]);
      if (gone.length > 0) {
        const to = deps.map((d) => d.id).filter((d) => !gone.includes(d));
        await uow.emit({
          work_item_id: id,
          type: 'dependencies_changed',
          by,
          payload: { from: deps.map((d) => d.id), to },
        });
      }
      if (rec.status === 'blocked') run = await this.settleIn(uow, rec, { dropped: gone }, by);
      return gone;
    });
    if (run) this.walks.walk(id);
    const rec = await itemOf(this.r, id);
    const waitingOn = unfinished(await dependenciesOf(this.r.store.db, id));
    return { rec, dropped, waitingOn };
  }
}
