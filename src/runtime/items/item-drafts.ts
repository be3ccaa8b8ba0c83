import { JigError } from '../../contract/errors.js';
import type { ItemDraftAnswer, ItemDraftOp } from '../../contract/items/draft.js';
import { addonPins } from '../../core/addons/pins.js';
import { reviseChain, type DraftOutcome } from '../../core/items/draft-ops.js';
import type { ChainContext } from '../../core/chain/load-chain.js';
import type { ResolvedChain } from '../../core/chain/model.js';
import { isEnded } from '../../core/items/status.js';
import {
  dropItemDraft,
  loadItemDraft,
  latestItemSeq,
  nodeCostHistory,
  saveItemDraft,
  type Db,
  type ItemDraftRecord,
} from '../../store/item-drafts.js';
import { getItem, updateItem, type ItemRecord } from '../../store/work-items.js';
import { stamp } from '../clock.js';
import type { Instance } from '../instance.js';
import { wrongStatus } from '../engine/move-guards.js';
import { itemStatuses } from '../../contract/item-status.js';

type Deps = Pick<Instance, 'store' | 'events' | 'config' | 'items' | 'clock' | 'repos'>;
type Started = ItemRecord & { chain_definition: ResolvedChain };

/**
 * A work item's own chain draft (spec drafts.md "Item drafts"): a stored op list, answered with
 * what each op would do to the item's chain now, and applied at once in one transaction. The
 * walker reads the item's chain afresh at every node boundary, so a revision reaches a running
 * item at its next node while the node it runs finishes as it started.
 */
export class ItemDrafts {
  constructor(private readonly d: Deps) {}

  /**
   * The item a caller may draft on: known (404), not the caller's own when the caller is one of the
   * item's workers (403), not ended (409). `worker` is the item id a worker's client says it runs in.
   */
  private async item(db: Db, id: string, worker: string | undefined): Promise<ItemRecord> {
    const rec = await getItem(db, id);
    if (!rec) throw new JigError('item_not_found', { id });
    if (worker !== undefined && worker === id) throw new JigError('item_draft_own_item', { id });
    if (isEnded(rec.status))
      throw wrongStatus(
        rec,
        'an ended item has no draft',
        itemStatuses.filter((s) => !isEnded(s)),
      );
    return rec;
  }

  private started(rec: ItemRecord, rule: string): Started {
    const chain = rec.chain_definition;
    if (chain === null)
      throw new JigError('item_draft_no_chain', { id: rec.id, rule }, { status: rec.status });
    return { ...rec, chain_definition: chain };
  }

  private library(): ChainContext | null {
    const lib = this.d.config.runningLibrary;
    return lib ? { library: lib.index, resolver: lib.resolver } : null;
  }

  private revise(rec: Started, ops: readonly ItemDraftOp[]): DraftOutcome {
    return reviseChain({
      chain: rec.chain_definition,
      walk: rec.walk,
      ops,
      policy: rec.policy_snapshot ?? this.d.config.policy,
      // The repo's layer bounds harnesses as the launch does (agent-runner passes it too).
      repoPolicy: this.d.repos.find(rec.repo)?.policy,
      library: this.library(),
    });
  }

  private async answer(rec: Started, draft: ItemDraftRecord | null): Promise<ItemDraftAnswer> {
    const ops = draft?.ops ?? [];
    const out = this.revise(rec, ops);
    const history = await nodeCostHistory(
      this.d.store.db,
      out.added.map((a) => a.node.id),
      rec.id,
    );
    const budget = this.d.items.dto(rec).budget_cap;
    return {
      ops: ops.map((op, i) => ({ ...op, passed: out.passed[i] ?? false })),
      problems: out.problems,
      checks: {
        budget: { spent_usd: budget.spent_usd, cap_usd: budget.cap_usd },
        added: out.added.map((a) => {
          const h = history.get(a.node.id);
          return {
            op: a.op,
            node: a.node.id,
            harnesses: a.harnesses,
            estimate_usd: h ? h.usd : null,
            estimate_runs: h ? h.runs : null,
          };
        }),
      },
      nodes: out.chain.nodes,
      base_seq: draft?.base_seq ?? null,
      updated_at: draft?.updated_at ?? null,
    };
  }

  async get(id: string, worker: string | undefined): Promise<ItemDraftAnswer> {
    const db = this.d.store.db;
    const rec = this.started(await this.item(db, id, worker), 'its draft is checked once it starts');
    return this.answer(rec, await loadItemDraft(db, id));
  }

  /** Replaces the op list (an empty one deletes the draft), then answers it. */
  async put(id: string, ops: ItemDraftOp[], worker: string | undefined): Promise<ItemDraftAnswer> {
    const db = this.d.store.db;
    const rec = await this.item(db, id, worker);
    let draft: ItemDraftRecord | null = null;
    if (ops.length === 0) await dropItemDraft(db, id);
    else {
      const was = await loadItemDraft(db, id);
      draft = {
        work_item_id: id,
        ops,
        base_seq: was?.base_seq ?? (await latestItemSeq(db, id)),
        updated_at: stamp(this.d.clock),
      };
      await saveItemDraft(db, draft);
    }
    // Stored first: an item that has not started keeps the ops for when it has a chain.
    const started = this.started(rec, 'the ops are stored and checked once it starts');
    return this.answer(started, draft);
  }

  async delete(id: string, worker: string | undefined): Promise<void> {
    const db = this.d.store.db;
    await this.item(db, id, worker);
    if (!(await dropItemDraft(db, id))) throw new JigError('item_draft_not_found', { id });
  }

  /**
   * Applies every op at once, in one transaction: the revised chain replaces the item's (event
   * `chain_revised`), each skip is a `scope_skipped` event, the draft is deleted. Nothing is
   * written when an op is passed (409 with `passed`) or has a problem (422 with `problems`).
   */
  async apply(id: string, worker: string | undefined): Promise<ItemDraftAnswer> {
    const rec = await this.d.events.transact(async (uow) => {
      const found = await this.item(uow.db, id, worker);
      const draft = await loadItemDraft(uow.db, id);
      if (!draft) throw new JigError('item_draft_not_found', { id });
      const cur = this.started(found, 'the draft is kept until it starts');
      const out = this.revise(cur, draft.ops);
      const passed = out.passed.flatMap((p, i) => (p ? [i] : []));
      if (passed.length > 0) {
        const what = `op${passed.length > 1 ? 's' : ''} ${passed.join(', ')}`;
        throw new JigError('item_draft_passed', { what, node: cur.current_node ?? 'none' }, { passed });
      }
      const first = out.problems[0];
      if (first) {
        const more = out.problems.length > 1 ? ` (and ${out.problems.length - 1} more)` : '';
        throw new JigError(
          'item_draft_problems',
          { reason: `op ${first.op}: ${first.message}${more}` },
          { problems: out.problems },
        );
      }
      const { added, removed, overridden } = out.revised;
      if (added.length + removed.length + overridden.length > 0) {
        await updateItem(uow.db, id, {
          chain_definition: withPins(out.chain, this.d.config.addons?.digests ?? {}),
          updated_at: stamp(this.d.clock),
        });
        await uow.emit({
          work_item_id: id,
          type: 'chain_revised',
          by: 'human',
          node: cur.current_node,
          payload: { source: 'draft', added, removed, overridden },
        });
      }
      for (const s of out.skips) {
        await uow.emit({
          work_item_id: id,
          type: 'scope_skipped',
          by: 'human',
          node: s.node,
          payload: { path: s.path, node: s.node, source: 'draft' },
        });
      }
      await dropItemDraft(uow.db, id);
      return (await getItem(uow.db, id)) ?? cur;
    });
    return this.answer(this.started(rec, 'it has no chain'), null);
  }
}

/**
 * The revised chain with the add-ons an added node brought pinned at the version installed now
 * (docs/addons.md): an add-on the item already uses keeps the version it started with.
 */
function withPins(chain: ResolvedChain, digests: Readonly<Record<string, string>>): ResolvedChain {
  const now = addonPins(chain, digests);
  if (now === null) return chain;
  return { ...chain, addons: { ...now, ...chain.addons } };
}
