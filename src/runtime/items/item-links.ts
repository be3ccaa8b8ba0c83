import { JigError } from '../../contract/errors.js';
import type { WorkItem } from '../../contract/items.js';
import type { Store } from '../../store/database.js';
import {
  dependenciesOf,
  dependencyProblem,
  linkedItems,
  setDependencies,
  waitingOnOf,
} from '../../store/dependencies.js';
import type { UnitOfWork } from '../events/event-log.js';
import type { EventActor } from '../../contract/events.js';
import { dependencyRefusal } from './dependency-refusal.js';

const sameSet = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

/**
 * What a PATCH's `after` asks for, or null when it changes nothing; refused (422) before the PATCH
 * touches anything, its attachment files included, when it names no item or closes a cycle.
 */
export async function afterChange(
  store: Store,
  id: string,
  after: readonly string[] | undefined,
): Promise<string[] | null> {
  if (after === undefined) return null;
  const to = [...new Set(after)];
  if (
    sameSet(
      (await dependenciesOf(store.db, id)).map((d) => d.id),
      to,
    )
  )
    return null;
  const refused = await dependencyProblem(store.db, id, to);
  if (refused) throw dependencyRefusal(refused);
  return to;
}

/**
 * Writes the new `after` inside the PATCH's transaction, against what it is there (a move or another
 * PATCH may have changed it since it was read); refused as a whole when it now closes a cycle.
 */
export async function writeAfter(
  uow: UnitOfWork,
  id: string,
  to: string[],
  by: EventActor,
  now: string,
): Promise<void> {
  const from = (await dependenciesOf(uow.db, id)).map((d) => d.id);
  if (sameSet(from, to)) return;
  const refused = await setDependencies(uow.db, id, to, now);
  if (refused) throw dependencyRefusal(refused);
  await uow.emit({ work_item_id: id, type: 'dependencies_changed', by, payload: { from, to } });
}

/** Items as answered, each blocked one with what it waits on (one read for the whole page). */
export async function withWaits(store: Store, items: WorkItem[]): Promise<WorkItem[]> {
  const blocked = items.filter((i) => i.status === 'blocked').map((i) => i.id);
  if (blocked.length === 0) return items;
  const waits = await waitingOnOf(store.db, blocked);
  return items.map((i) => (i.status === 'blocked' ? { ...i, waiting_on: waits.get(i.id) ?? [] } : i));
}

/** The status a dry run says a filing would take: `blocked` when started before its `after` completed. */
export async function filedStatus(
  store: Store,
  after: readonly string[] | undefined,
  start: boolean,
): Promise<'paused' | 'blocked' | 'queued'> {
  const ids = [...new Set(after ?? [])];
  const found = await linkedItems(store.db, ids);
  const unknown = ids.filter((d) => !found.some((f) => f.id === d));
  if (unknown.length > 0) throw dependencyRefusal({ unknown });
  const open = found.some((f) => f.status !== 'completed');
  if (!start) return 'paused';
  return open ? 'blocked' : 'queued';
}

/** Refuses (409) a filing that starts at once after an item cancelled or abandoned. */
export async function refuseDeadEnds(store: Store, after: readonly string[]): Promise<void> {
  const dead = (await linkedItems(store.db, after)).find(
    (d) => d.status === 'cancelled' || d.status === 'abandoned',
  );
  if (dead)
    throw new JigError(
      'dependency_ended',
      { dependency: dead.id, title: dead.title, state: dead.status, how: 'leave it out of after' },
      { field: 'after', dependency: dead.id, dependency_status: dead.status },
    );
}
