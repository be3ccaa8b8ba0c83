import type { WorkItem } from '../../contract/items.js';
import type { Store } from '../../store/database.js';
import { dependenciesOf, setDependencies, waitingOnOf } from '../../store/dependencies.js';
import type { UnitOfWork } from '../events/event-log.js';
import type { EventActor } from '../../contract/events.js';
import { dependencyRefusal } from './dependency-refusal.js';

/** What a PATCH's `after` changes: the ids before and after, or null when it changes nothing. */
export async function afterChange(
  store: Store,
  id: string,
  after: readonly string[] | undefined,
): Promise<{ from: string[]; to: string[] } | null> {
  if (after === undefined) return null;
  const from = (await dependenciesOf(store.db, id)).map((d) => d.id);
  const to = [...new Set(after)];
  const same = from.length === to.length && [...from].sort().join('\n') === [...to].sort().join('\n');
  return same ? null : { from, to };
}

/** Writes the new `after` inside the PATCH's transaction; a cycle or an unknown id refuses the whole PATCH. */
export async function writeAfter(
  uow: UnitOfWork,
  id: string,
  change: { from: string[]; to: string[] },
  by: EventActor,
  now: string,
): Promise<void> {
  const refused = await setDependencies(uow.db, id, change.to, now);
  if (refused) throw dependencyRefusal(refused);
  await uow.emit({ work_item_id: id, type: 'dependencies_changed', by, payload: change });
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
  let open = false;
  if (ids.length > 0) {
    const rows = await store.db
      .selectFrom('work_items')
      .select(['id', 'status'])
      .where('id', 'in', ids)
      .execute();
    const known = new Set(rows.map((r) => r.id));
    const unknown = ids.filter((d) => !known.has(d));
    if (unknown.length > 0) throw dependencyRefusal({ unknown });
    open = rows.some((r) => r.status !== 'completed');
  }
  if (!start) return 'paused';
  return open ? 'blocked' : 'queued';
}
