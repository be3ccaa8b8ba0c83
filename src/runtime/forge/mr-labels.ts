import { JigError } from '../../contract/errors.js';
import type { ItemMergeRequest } from '../../contract/merge-requests.js';
import type { RepoEntry } from '../../contract/config/repos.js';
import { getMergeRequest, saveMergeRequest } from '../../store/merge-requests.js';
import type { Store } from '../../store/database.js';
import type { ItemRecord } from '../../store/work-items.js';
import type { EventLog } from '../events/event-log.js';
import { forgeClient } from './client.js';
import { repoForge } from './for-repo.js';
import { ForgeError } from './types.js';

/**
 * Sets the labels of an item's merge request on its forge (the whole set) and records them: a
 * person's move, or the item's agent through the worker verb (`jig item mr-label`).
 */
export async function setMrLabels(
  d: {
    store: Store;
    events: EventLog;
    now: () => string;
    record: (id: string) => Promise<ItemRecord>;
    repo: (path: string) => RepoEntry | null;
    timeoutMs: (rec: ItemRecord) => number;
  },
  id: string,
  labels: string[],
  by: 'human' | 'agent',
): Promise<ItemMergeRequest> {
  const rec = await d.record(id);
  const mr = await getMergeRequest(d.store.db, rec.id, rec.repo);
  if (!mr) throw new JigError('no_merge_request', { id: rec.id });
  const repo = d.repo(rec.repo);
  if (!repo) throw new JigError('repo_not_connected', { path: rec.repo });
  const forge = await repoForge(repo);
  if (!forge.ok) throw new JigError('forge_unavailable', { repo: rec.repo, reason: forge.reason });
  let set: string[];
  try {
    set = await forgeClient(forge.location, forge.token, d.timeoutMs(rec)).setLabels(mr, [
      ...new Set(labels),
    ]);
  } catch (err) {
    if (err instanceof ForgeError) throw new JigError('forge_refused', { reason: err.message });
    throw err;
  }
  const { repo: _repo, updated_at: _at, ...forgeSide } = mr;
  await saveMergeRequest(d.store.db, rec.id, rec.repo, { ...forgeSide, labels: set }, d.now());
  await d.events.record(rec.id, 'mr_labels_set', { repo: rec.repo, number: mr.number, labels: set }, { by });
  const now = await getMergeRequest(d.store.db, rec.id, rec.repo);
  if (!now) throw new Error(`merge request of ${rec.id} vanished while being labelled`);
  return now;
}
