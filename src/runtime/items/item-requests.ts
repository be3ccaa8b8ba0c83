import type { z } from 'zod';
import { isJigError, JigError } from '../../contract/errors.js';
import type { EventsPage, EventsQuery } from '../../contract/events.js';
import { readEvents } from '../../store/events.js';
import type { EventActor } from '../../contract/events.js';
import type { WorkItem } from '../../contract/items.js';
import type { Store } from '../../store/database.js';
import { issuesOf } from '../../store/item-issues.js';
import type { ItemRecord } from '../../store/work-items.js';
import type { MergeRequestsService } from '../forge/merge-requests-service.js';
import type { IntakeInput } from './intake.js';
import type { ItemsService } from './items-service.js';
import { dependenciesOf, dependentsOf } from '../../store/dependencies.js';
import { refuseDeadEnds, withWaits } from './item-links.js';
import type { Move } from '../../core/items/moves.js';
import { isEnded } from '../../core/items/status.js';

/** What filing and bulk moves ask of the engine: a start, and a pause of a running item. */
export interface ItemsEngine {
  resume(id: string, note: string | undefined, by: EventActor): Promise<ItemRecord>;
  pause(id: string, by: EventActor): Promise<ItemRecord>;
}

type BulkAction = 'pause' | 'cancel' | 'archive' | 'restore';

/** One item's answer in a bulk move, as the single-item route would have answered it. */
export interface BulkResult {
  id: string;
  ok: boolean;
  status: number;
  item: WorkItem | null;
  detail: string | null;
  code: string | null;
}

/**
 * The requests about items that take more than one service: filing (and starting) with the
 * issues the item implements, an item's whole view (its issues and merge requests), bulk moves.
 * Routes make one call here, not three.
 */
export class ItemRequests {
  constructor(
    private readonly d: {
      store: Store;
      items: ItemsService;
      engine: ItemsEngine;
      mergeRequests: Pick<MergeRequestsService, 'list'>;
    },
  ) {}

  /** Files the item (and starts it when asked), answering it with the issues it implements. */
  async file(
    input: IntakeInput & { start?: boolean | undefined },
    source: ItemRecord['source'],
    by: EventActor,
  ): Promise<WorkItem> {
    // A start after an item that will never complete is refused before anything is filed: filed
    // first, a retry of the request would file it twice.
    if (input.start && input.after) await refuseDeadEnds(this.d.store, input.after);
    const rec = await this.d.items.create(input, source, by);
    const issues = await issuesOf(this.d.store.db, rec.id);
    const filed = input.start ? await this.d.engine.resume(rec.id, undefined, by) : rec;
    return { ...(await this.view(filed)), ...(issues.length > 0 ? { issues } : {}) };
  }

  /** The item as a move answers it: a blocked one says what it waits on. */
  async view(rec: ItemRecord): Promise<WorkItem> {
    const [item] = await withWaits(this.d.store, [this.d.items.dto(rec)]);
    return item ?? this.d.items.dto(rec);
  }

  /** The item after a move; a cancel or abandon names the items it leaves blocked. */
  async moved(rec: ItemRecord, move: Move): Promise<WorkItem> {
    const item = await this.view(rec);
    if (move !== 'cancel' && move !== 'abandon') return item;
    const left = (await dependentsOf(this.d.store.db, rec.id)).filter((d) => !isEnded(d.status));
    return left.length > 0 ? { ...item, dependents: left } : item;
  }

  /** The item with its issues and merge requests (each only when it has some). */
  async detail(id: string): Promise<WorkItem> {
    const item = await this.view(await this.d.items.record(id));
    const mrs = await this.d.mergeRequests.list(item.id);
    const issues = await issuesOf(this.d.store.db, item.id);
    const dependencies = await dependenciesOf(this.d.store.db, id);
    const dependents = await dependentsOf(this.d.store.db, id);
    return {
      ...item,
      ...(dependencies.length > 0 ? { dependencies } : {}),
      ...(dependents.length > 0 ? { dependents } : {}),
      ...(issues.length > 0 ? { issues } : {}),
      ...(mrs.length > 0 ? { merge_requests: mrs } : {}),
    };
  }

  /** A page of the item's events, forward (`after`) or backward (`before`), never both. */
  async events(id: string, q: z.infer<typeof EventsQuery>): Promise<EventsPage> {
    if (q.after !== undefined && q.before !== undefined) {
      throw new JigError('validation_failed', { reason: 'query: send after or before, not both' });
    }
    await this.d.items.record(id);
    const events = await readEvents(this.d.store.db, { workItemId: id, ...q });
    const first = events[0];
    const last = events[events.length - 1];
    return {
      events,
      next_after: last ? last.seq : (q.after ?? null),
      next_before: first ? first.seq : (q.before ?? null),
    };
  }

  /** Each item moved in turn; a refusal is that item's answer, never the request's. */
  async bulk(
    ids: readonly string[],
    action: BulkAction,
    by: EventActor,
    reason?: string,
  ): Promise<BulkResult[]> {
    const results: BulkResult[] = [];
    for (const id of ids) {
      try {
        const rec =
          action === 'pause'
            ? await this.d.engine.pause(id, by)
            : await this.d.items.move(id, action, by, reason);
        results.push({ id, ok: true, status: 200, item: this.d.items.dto(rec), detail: null, code: null });
      } catch (err) {
        if (!isJigError(err)) throw err;
        results.push({ id, ok: false, status: err.status, item: null, detail: err.message, code: err.code });
      }
    }
    return results;
  }
}
