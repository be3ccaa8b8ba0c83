import { rmSync } from 'node:fs';
import { stamp } from '../clock.js';
import { requireChain } from './chain-catalog.js';
import { JigError } from '../../contract/errors.js';
import type { AttachmentKind, PatchItemBody, WorkItem } from '../../contract/items.js';
import { itemStatuses, type ItemStatus } from '../../contract/item-status.js';
import { decideMove, type Move } from '../../core/items/moves.js';
import { isEnded } from '../../core/items/status.js';
import { filedSkip } from '../../core/chain/filed-skip.js';
import { checkTitle, dropHiddenCharacters } from '../../core/items/title-rules.js';
import { badModelIds } from '../../core/items/overrides.js';
import { checkNodeOverrides } from '../../core/items/node-settings.js';
import type { LaunchCheck } from '../harness/launch-check.js';
import { policyOverrideProblem } from '../../core/items/policy-override.js';
import { spentSince } from '../../store/sessions.js';
import { itemsToReclaim, listItems } from '../../store/item-list.js';
import { getItem, updateItem, updateItemIf, type ItemRecord } from '../../store/work-items.js';
import type { EventKind, EventPayload } from '../../contract/event-kinds.js';
import type { EventActor } from '../../contract/events.js';
import type { ItemChainAnswer } from '../../contract/routes/work-items/chain.js';
import { attachmentFile, attachmentText, prepareAttachment, storeAttachment } from './attachments.js';
import { deleteAttachmentText, saveAttachmentText } from '../../store/attachment-texts.js';
import {
  checkIntake,
  checkSkipNodes,
  fileItem,
  type CreatedExtra,
  type FileOptions,
  type IntakeDeps,
  type IntakeInput,
} from './intake.js';
import { budgetCap, toDto, type PolicyBudget } from './item-dto.js';
import { fileTrigger, type TriggerFiled } from './trigger-intake.js';
import { reclaimWorktree } from './reclaim.js';
import { afterChange, filedStatus, withWaits, writeAfter } from './item-links.js';
import { cancelPreviewOf } from './cancel-preview.js';
import { decodeCursor, encodeCursor } from '../../core/items/list-cursor.js';
import type { CancelPreview } from '../../contract/routes/work-items/moves.js';

const moveEvents = {
  cancel: 'work_item_cancelled',
  complete: 'work_item_manually_completed',
  abandon: 'work_item_abandoned',
  archive: 'work_item_archived',
  restore: 'work_item_restored',
  pause: 'work_item_paused',
} as const satisfies Record<Move, EventKind>;

/** The events a PATCH records, one per setting changed. */
type PatchKind =
  | 'title_changed'
  | 'description_changed'
  | 'chain_changed'
  | 'agent_overrides_changed'
  | 'node_overrides_changed'
  | 'policy_override_changed'
  | 'budget_changed'
  | 'skip_nodes_changed'
  | 'attachments_changed';
type PatchEvent = { [K in PatchKind]: { type: K; payload: EventPayload<K> } }[PatchKind];

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export interface ListQuery {
  status?: string;
  repo?: string;
  chain?: string;
  archived: 'true' | 'false' | 'all';
  limit: number;
  cursor?: string;
}

/** Work items: filing, reading, and the moves that need no running engine. */
export class ItemsService {
  constructor(
    private readonly deps: IntakeDeps & {
      /**
       * The engine's side of an ending: a running item's processes end and its slot goes on (the
       * engine implements it; built before this service, it needs nothing of it).
       */
      ended?: (id: string) => Promise<void>;
      /** The engine looks at the blocked items that come after one that ended, or whose `after` changed. */
      settle?: { ended(id: string): Promise<void>; changed(id: string): Promise<void> };
      /** The home's run/ folder: a reclaimed item's sandbox folders go with its worktree. */
      runDir?: string;
      /** The agent launches of a chain that cannot start on this machine (a dry run names them). */
      launchCheck?: LaunchCheck;
    },
  ) {}

  private get db() {
    return this.deps.store.db;
  }

  policyBudget(): PolicyBudget {
    const budget = (this.deps.config.policy?.budget ?? {}) as Record<string, unknown>;
    return { work_item_usd: num(budget.work_item_usd) };
  }

  dto(rec: ItemRecord): WorkItem {
    return toDto(rec, this.policyBudget());
  }

  async record(id: string): Promise<ItemRecord> {
    const rec = await getItem(this.db, id);
    if (!rec) throw new JigError('item_not_found', { id });
    return rec;
  }

  /** `extraPayload` adds keys to `work_item_created` (a schedule's firing names its entry). */
  async create(
    input: IntakeInput,
    source: ItemRecord['source'],
    by: EventActor,
    extraPayload?: CreatedExtra,
    claim?: FileOptions['claim'],
  ): Promise<ItemRecord> {
    const checked = checkIntake(this.deps, input);
    return fileItem(this.deps, input, checked, { source, by, extraPayload, ...(claim ? { claim } : {}) });
  }

  /** The chain the board draws: the item's own once it started, else its chain file's. */
  async chainOf(id: string): Promise<ItemChainAnswer> {
    const rec = await this.record(id);
    if (rec.chain_definition) return { chain: rec.chain, source: 'item', nodes: rec.chain_definition.nodes };
    const chain = requireChain(this.deps.chains, rec.chain);
    return { chain: rec.chain, source: 'template', nodes: chain.definition.nodes };
  }

  /** `POST /api/triggers`, with its optional `Idempotency-Key` (see trigger-intake.ts). */
  trigger(input: IntakeInput, idempotencyKey?: string): Promise<TriggerFiled> {
    return fileTrigger(this.deps, input, idempotencyKey);
  }

  async dryRun(input: IntakeInput, start: boolean) {
    const checked = checkIntake(this.deps, input);
    const status = await filedStatus(this.deps.store, input.after, start);
    const attached = checked.attachments.map((a) => a.kind);
    const nodes = checked.chain.definition.nodes.map((n) => ({
      id: n.id,
      kind: n.kind,
      skipped: filedSkip(n, input.skip_nodes ?? [], attached)?.note ?? null,
    }));
    return {
      dry_run: true as const,
      would_file: {
        title: checked.title,
        repo: checked.repo.path,
        ...(checked.workspace ? { workspace: checked.workspace } : {}),
        chain: checked.chain.id,
        status,
        nodes,
        gates: nodes.filter((n) => n.kind === 'gate').map((n) => n.id),
        budget_cap: budgetCap({ budget_usd: input.budget_usd ?? null, spent_usd: 0 }, this.policyBudget()),
        cannot_launch:
          this.deps.launchCheck?.(
            checked.chain.definition,
            new Set(nodes.filter((n) => n.skipped !== null).map((n) => n.id)),
            checked.repo,
          ) ?? [],
      },
    };
  }

  async list(q: ListQuery) {
    const statuses = q.status
      ? q.status
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : [];
    for (const s of statuses) {
      if (!(itemStatuses as readonly string[]).includes(s)) {
        throw new JigError('validation_failed', {
          reason: `query.status: ${s} is not one of ${itemStatuses.join(', ')}`,
        });
      }
    }
    const cursor = q.cursor ? decodeCursor(q.cursor) : undefined;
    if (cursor === null)
      throw new JigError('validation_failed', { reason: 'query.cursor: not a cursor this server gave' });
    const page = await listItems(this.deps.store, {
      statuses: statuses as ItemStatus[],
      repo: q.repo,
      chain: q.chain,
      archived: q.archived,
      limit: q.limit,
      cursor,
    });
    const last = page.rows[page.rows.length - 1];
    const budget = this.policyBudget();
    return {
      items: await withWaits(
        this.deps.store,
        page.rows.map((r) => toDto(r, budget)),
      ),
      next_cursor: page.more && last ? encodeCursor(last) : null,
      total: page.total,
    };
  }

  async patch(id: string, body: PatchItemBody, by: EventActor): Promise<ItemRecord> {
    const rec = await this.record(id);
    const changes: Partial<ItemRecord> = {};
    const events: PatchEvent[] = [];
    if (body.title !== undefined) {
      const t = checkTitle(body.title);
      if (!t.ok) throw new JigError('invalid_title', { message: t.message }, { field: 'title' });
      if (t.title !== rec.title) {
        changes.title = t.title;
        events.push({ type: 'title_changed', payload: { from: rec.title, to: t.title } });
      }
    }
    if (body.description !== undefined && body.description !== rec.description) {
      changes.description = body.description;
      events.push({ type: 'description_changed', payload: {} });
    }
    const settings = [
      'chain',
      'attachments',
      'agent_overrides',
      'node_overrides',
      'policy_override',
      'budget_usd',
      'skip_nodes',
      'after',
    ] as const;
    if (settings.some((k) => body[k] !== undefined) && isEnded(rec.status)) {
      throw new JigError(
        'item_wrong_status',
        { state: rec.status, rule: 'only its title and description can change' },
        { status: rec.status, allowed: itemStatuses.filter((x) => !isEnded(x)) },
      );
    }
    if (body.chain !== undefined && body.chain !== rec.chain) {
      // A queued item has frozen its chain too, though no slot has started it yet.
      if (rec.started_at !== null || rec.walk !== null) {
        throw new JigError('chain_frozen', {}, { status: rec.status });
      }
      requireChain(this.deps.chains, body.chain);
      changes.chain = body.chain;
      events.push({ type: 'chain_changed', payload: { from: rec.chain, to: body.chain } });
    }
    const skips = body.skip_nodes;
    if (
      (skips !== undefined && !sameList(skips, rec.skip_nodes)) ||
      (changes.chain && rec.skip_nodes.length > 0)
    ) {
      // The walk reads the list at each node it enters: after the start it is frozen with the chain.
      if (rec.started_at !== null || rec.walk !== null)
        throw new JigError('chain_frozen', {}, { status: rec.status });
      const found = this.deps.chains.lookup(changes.chain ?? rec.chain);
      if (found.ok) checkSkipNodes(found.chain, skips ?? rec.skip_nodes);
      if (skips !== undefined && !sameList(skips, rec.skip_nodes)) {
        changes.skip_nodes = skips;
        events.push({ type: 'skip_nodes_changed', payload: { from: rec.skip_nodes, to: skips } });
      }
    }
    for (const key of ['agent_overrides', 'node_overrides'] as const) {
      const v = body[key];
      if (v === undefined) continue;
      const bad = badModelIds(key, v);
      if (bad.length > 0)
        throw new JigError('invalid_model_override', { field: bad[0]!.field, value: bad[0]!.value });
      if (key === 'node_overrides') checkNodeOverrides(v);
      changes[key] = v;
      events.push({ type: `${key}_changed`, payload: { value: v } });
    }
    if (body.policy_override !== undefined) {
      const bad = policyOverrideProblem(body.policy_override);
      if (bad)
        throw new JigError(
          'validation_failed',
          { reason: `body.${bad.field}: ${bad.message}` },
          { issues: [{ field: `body.${bad.field}`, message: bad.message }] },
        );
      changes.policy_override = body.policy_override;
      events.push({ type: 'policy_override_changed', payload: { value: body.policy_override } });
    }
    if (body.budget_usd !== undefined && body.budget_usd !== rec.budget_usd) {
      changes.budget_usd = body.budget_usd;
      events.push({ type: 'budget_changed', payload: { from: rec.budget_usd, to: body.budget_usd } });
    }
    // Checked before the attachment files below are touched: a refused PATCH changes nothing.
    const after = await afterChange(this.deps.store, id, body.after);
    // Texts the store keeps beside the files (a worker elsewhere reads them), null when removed.
    const texts: [AttachmentKind, string | null][] = [];
    if (body.attachments !== undefined) {
      const next = { ...rec.attachments };
      for (const kind of ['spec', 'plan'] as const) {
        const a = body.attachments[kind];
        if (a === undefined) continue;
        if (a === null) {
          delete next[kind];
          rmSync(attachmentFile(this.deps.attachmentsDir, id, kind), { force: true });
          texts.push([kind, null]);
        } else {
          const prepared = prepareAttachment(kind, a, rec.repo);
          next[kind] = storeAttachment(this.deps.attachmentsDir, id, prepared);
          texts.push([kind, prepared.text]);
        }
      }
      changes.attachments = next;
      events.push({ type: 'attachments_changed', payload: { kinds: Object.keys(next) } });
    }
    if (events.length === 0 && !after) return rec;
    const now = stamp(this.deps.clock);
    changes.updated_at = now;
    await this.deps.events.transact(async (uow) => {
      await updateItem(uow.db, id, changes);
      if (after) await writeAfter(uow, id, after, by, now);
      for (const [kind, text] of texts)
        if (text === null) await deleteAttachmentText(uow.db, id, kind);
        else await saveAttachmentText(uow.db, id, kind, text);
      for (const e of events) await uow.emit({ work_item_id: id, by, ...e });
    });
    // A blocked item (as it may be by now, whatever it was when read) may have nothing left to wait
    // on, or a dependency that will never complete: the settle decides on the row as it is.
    if (after) await this.deps.settle?.changed(id);
    return after ? this.record(id) : { ...rec, ...changes };
  }

  /**
   * One move of the state table; refused moves answer 409 naming the current status. The move is
   * decided on the row read inside its own transaction and written only while the row is still in
   * that state, so of two racing moves exactly one wins and the other answers what it would answer
   * run after. What a move does outside the store (ending processes, removing the worktree and the
   * branch) happens after the win, by the winner only.
   */
  async move(
    id: string,
    move: Move,
    by: EventActor,
    reason?: string,
    closeBeads?: boolean,
  ): Promise<ItemRecord> {
    const claimed = await this.deps.events.transact(async (uow) => {
      const rec = await getItem(uow.db, id);
      if (!rec) throw new JigError('item_not_found', { id });
      const from = { status: rec.status, archived: rec.archived_at !== null };
      const decision = decideMove(move, from);
      if (!decision.ok)
        throw new JigError(
          'item_wrong_status',
          { state: decision.state, rule: decision.rule },
          { status: rec.status, allowed: decision.allowed },
        );
      if (!decision.changed) return { rec, after: rec, changed: false };
      const now = stamp(this.deps.clock);
      const changes: Partial<ItemRecord> = { status: decision.to.status, updated_at: now };
      if (move === 'archive') changes.archived_at = now;
      if (move === 'restore') changes.archived_at = null;
      if (move === 'pause') changes.queued_at = null;
      // An abandon after a cancel keeps the time the item ended; its event records the second move.
      if (move === 'cancel' || move === 'complete' || move === 'abandon')
        changes.ended_at = rec.status === 'cancelled' ? (rec.ended_at ?? now) : now;
      if (!(await updateItemIf(uow.db, id, from, changes))) {
        const now = await getItem(uow.db, id);
        const state = now?.status ?? rec.status;
        throw new JigError('item_changed', { state }, { status: state });
      }
      const payload = {
        from: rec.status,
        ...(reason ? { reason } : {}),
        ...(closeBeads && move === 'complete' ? { close_beads: true } : {}),
      };
      await uow.emit({ work_item_id: id, type: moveEvents[move], by, payload });
      return { rec, after: { ...rec, ...changes }, changed: true };
    });
    if (!claimed.changed) return claimed.rec;
    const was = claimed.rec.status;
    if (move === 'cancel' || move === 'complete' || move === 'abandon') {
      await this.deps.settle?.ended(id).catch((err: unknown) => {
        this.deps.log?.error({ err, item: id }, 'looking at the items that come after it failed');
      });
    }
    // The move is committed: what follows is cleanup, and a failure there is logged (and finished at
    // the next start) rather than answered as if the move had failed.
    try {
      // The processes go before their worktree does.
      if (was === 'running' || was === 'queued' || was === 'waiting') await this.deps.ended?.(id);
    } catch (err) {
      this.deps.log?.error({ err, item: id }, `ending the processes of a ${move}d item failed`);
    }
    // An archived item that never had a worktree has nothing to reclaim; an abandon records its
    // cleanup always (reclaimPending looks for that record).
    if (move === 'abandon' || (move === 'archive' && claimed.after.worktree_path !== null)) {
      try {
        return await this.reclaim(claimed.after);
      } catch (err) {
        this.deps.log?.error({ err, item: id }, 'reclaiming the worktree failed; the next start retries');
      }
    }
    return claimed.after;
  }

  private reclaim(rec: ItemRecord): Promise<ItemRecord> {
    return reclaimWorktree(this.deps.events, rec, false, this.deps.runDir);
  }

  /** Archived or abandoned items whose cleanup a stop interrupted: finished at start. */
  async reclaimPending(): Promise<number> {
    const rows = await itemsToReclaim(this.db);
    let done = 0;
    for (const id of rows) {
      try {
        const rec = await getItem(this.db, id);
        if (rec) await this.reclaim(rec);
        done++;
      } catch (err) {
        this.deps.log?.error({ err, item: id }, 'reclaiming the worktree failed; the next start retries');
      }
    }
    return done;
  }

  async cancelPreview(id: string): Promise<CancelPreview> {
    return cancelPreviewOf(this.db, await this.record(id));
  }

  async duplicate(id: string, by: EventActor): Promise<ItemRecord> {
    const rec = await this.record(id);
    const attachments: IntakeInput['attachments'] = {};
    for (const kind of Object.keys(rec.attachments) as AttachmentKind[]) {
      const text = await attachmentText(this.db, this.deps.attachmentsDir, id, kind);
      if (text !== null) attachments[kind] = { text };
    }
    const input: IntakeInput = {
      title: cleanForDuplicate(rec.title),
      description: rec.description,
      // A workspace item is copied onto the same workspace and members (the workspace as it is now).
      repo: rec.workspace?.name ?? rec.repo,
      ...(rec.workspace ? { members: rec.workspace.members.map((m) => m.name) } : {}),
      chain: rec.chain,
      attachments,
      agent_overrides: rec.agent_overrides,
      node_overrides: rec.node_overrides,
      policy_override: rec.policy_override,
      budget_usd: rec.budget_usd,
      base_branch: rec.base_branch ?? undefined,
      // The copy runs as the original would: the same nodes passed, the same say for the reviewer.
      skip_nodes: rec.skip_nodes.length > 0 ? rec.skip_nodes : undefined,
      auto_gate: rec.auto_gate ?? undefined,
    };
    const checked = checkIntake(this.deps, input);
    return fileItem(this.deps, input, checked, {
      source: 'duplicate',
      by,
      extraPayload: { duplicate_of: id },
    });
  }

  async attachment(id: string, kind: AttachmentKind): Promise<{ text: string; info: unknown }> {
    const rec = await this.record(id);
    const info = rec.attachments[kind];
    const text = info ? await attachmentText(this.db, this.deps.attachmentsDir, id, kind) : null;
    if (text === null) throw new JigError('attachment_missing', { id, kind });
    return { text, info };
  }

  /** Spend since local midnight against policy's daily cap. */
  async budgetToday() {
    const budget = (this.deps.config.policy?.budget ?? {}) as Record<string, unknown>;
    const midnight = new Date(this.deps.clock.now());
    midnight.setHours(0, 0, 0, 0);
    const cap = num(budget.daily_usd);
    // Agent sessions are the only spenders; a session with tokens but no price counts as unpriced.
    const { usd, unpriced } = await spentSince(this.db, midnight.toISOString());
    const spent = Math.round(usd * 1e6) / 1e6;
    return {
      since: midnight.toISOString(),
      spent_usd: spent,
      cap_usd: cap,
      remaining_usd: cap === null ? null : Math.max(0, Math.round((cap - spent) * 1e6) / 1e6),
      unpriced_sessions: unpriced,
    };
  }
}

/** Titles filed before the one-line rule may hold breaks or controls: a duplicate cleans them. */
function cleanForDuplicate(title: string): string {
  if (checkTitle(title).ok) return title;
  const first = title.split(/\r\n|[\n\r\u2028\u2029\u0085]/).find((l) => l.trim() !== '') ?? title;
  const cleaned = dropHiddenCharacters(
    first.replace(/\t/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f]/g, ''),
  ).trim();
  return [...cleaned].slice(0, 500).join('') || 'Untitled';
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
