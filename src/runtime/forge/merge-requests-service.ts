import type { PolicyFile } from '../../contract/config/policy.js';
import type { RepoEntry } from '../../contract/config/repos.js';
import { JigError } from '../../contract/errors.js';
import type { ForgeMergeRequest, ItemMergeRequest } from '../../contract/merge-requests.js';
import type { Store } from '../../store/database.js';
import { getMergeRequest, listMergeRequests, saveMergeRequest } from '../../store/merge-requests.js';
import type { ItemRecord } from '../../store/work-items.js';
import type { EventLog } from '../events/event-log.js';
import { repoClient } from './for-repo.js';
import { ForgeError } from './types.js';

/** An item's merge requests: as recorded, and the moves a person or its agent makes on them. */
export class MergeRequestsService {
  constructor(
    private readonly d: {
      store: Store;
      events: EventLog;
      now: () => string;
      record: (id: string) => Promise<ItemRecord>;
      repo: (path: string) => RepoEntry | null;
      policyOf: (rec: ItemRecord) => PolicyFile | null;
    },
  ) {}

  async list(id: string): Promise<ItemMergeRequest[]> {
    const rec = await this.d.record(id);
    return listMergeRequests(this.d.store.db, rec.id);
  }

  /** The forge client for the item's repository, or the error a person reads. */
  private async client(rec: ItemRecord) {
    const repo = this.d.repo(rec.repo);
    if (!repo) throw new JigError('repo_not_connected', { path: rec.repo });
    const forge = await repoClient(repo, this.d.policyOf(rec)?.forge_cli_timeout_s ?? 120);
    if (!forge.ok) throw new JigError('forge_unavailable', { repo: rec.repo, reason: forge.reason });
    return forge.client;
  }

  /**
   * Reopens the item's merge request that was closed on the forge without merging (the item is
   * stopped on it, kind `mr_closed`); the caller then retries the item.
   */
  async reopen(id: string): Promise<ItemMergeRequest> {
    const rec = await this.d.record(id);
    if (rec.status !== 'stopped' || rec.stop_kind !== 'mr_closed') {
      const state = rec.status === 'stopped' ? `stopped (${rec.stop_kind ?? 'no kind'})` : rec.status;
      throw new JigError('mr_not_closed', { id: rec.id, state });
    }
    const mr = await getMergeRequest(this.d.store.db, rec.id, rec.repo);
    if (!mr) throw new JigError('no_merge_request', { id: rec.id });
    const client = await this.client(rec);
    let open: ForgeMergeRequest;
    try {
      open = await client.reopen(mr);
    } catch (err) {
      if (err instanceof ForgeError) throw new JigError('forge_refused', { reason: err.message });
      throw err;
    }
    await this.d.events.transact(async (uow) => {
      await saveMergeRequest(uow.db, rec.id, rec.repo, open, this.d.now());
      await uow.emit({
        work_item_id: rec.id,
        type: 'mr_reopened',
        by: 'human',
        node: rec.current_node,
        payload: { repo: rec.repo, number: open.number, url: open.url },
      });
    });
    const now = await getMergeRequest(this.d.store.db, rec.id, rec.repo);
    if (!now) throw new Error(`merge request of ${rec.id} vanished while being reopened`);
    return now;
  }

  /**
   * Sets the labels of the item's merge request on its forge (the whole set) and records them: a
   * person's move, or the item's agent through the worker verb (`jig item mr-label`).
   */
  async setLabels(id: string, labels: string[], by: 'human' | 'agent'): Promise<ItemMergeRequest> {
    const rec = await this.d.record(id);
    const mr = await getMergeRequest(this.d.store.db, rec.id, rec.repo);
    if (!mr) throw new JigError('no_merge_request', { id: rec.id });
    const client = await this.client(rec);
    let set: string[];
    try {
      set = await client.setLabels(mr, [...new Set(labels)]);
    } catch (err) {
      if (err instanceof ForgeError) throw new JigError('forge_refused', { reason: err.message });
      throw err;
    }
    const { repo: _repo, updated_at: _at, ...forgeSide } = mr;
    await saveMergeRequest(this.d.store.db, rec.id, rec.repo, { ...forgeSide, labels: set }, this.d.now());
    await this.d.events.record(
      rec.id,
      'mr_labels_set',
      { repo: rec.repo, number: mr.number, labels: set },
      { by },
    );
    const now = await getMergeRequest(this.d.store.db, rec.id, rec.repo);
    if (!now) throw new Error(`merge request of ${rec.id} vanished while being labelled`);
    return now;
  }
}
