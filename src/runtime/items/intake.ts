import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RepoEntry } from '../../contract/config/repos.js';
import { isJigError, JigError } from '../../contract/errors.js';
import type { EventPayload } from '../../contract/event-kinds.js';
import type { AttachmentInput, AttachmentKind } from '../../contract/items.js';
import { checkTitle } from '../../core/items/title-rules.js';
import { badModelIds } from '../../core/items/overrides.js';
import { checkNodeOverrides } from '../../core/items/node-settings.js';
import { policyOverrideProblem } from '../../core/items/policy-override.js';
import { insertItem, type ItemRecord } from '../../store/work-items.js';
import { findTriggerKey, recordTriggerKey, type TriggerKey } from '../../store/trigger-keys.js';
import type { EventActor } from '../../contract/events.js';
import type { Store } from '../../store/database.js';
import type { Database } from '../../store/schema.js';
import type { Transaction } from 'kysely';
import type { ConfigState } from '../config/config-state.js';
import type { EventLog } from '../events/event-log.js';
import type { ReposService } from '../repos/repos-service.js';
import { prepareAttachment, storeAttachment, type PreparedAttachment } from './attachments.js';
import { saveAttachmentText } from '../../store/attachment-texts.js';
import { requireChain, type ChainCatalog, type ChainSummary } from './chain-catalog.js';
import { branchName, newItemId } from './ids.js';
import type { Logger } from 'pino';
import type { ItemWorkspace } from '../../contract/item-workspace.js';
import { stamp, type Clock } from '../clock.js';
import type { IssueTracker, ItemIssue } from '../../contract/item-issues.js';
import { linkIssues } from '../../store/item-issues.js';
import { setDependencies } from '../../store/dependencies.js';
import { dependencyRefusal } from './dependency-refusal.js';

export interface IntakeInput {
  title: string;
  description: string;
  repo: string;
  chain?: string;
  chain_template?: string;
  attachments?: Partial<Record<AttachmentKind, AttachmentInput>>;
  agent_overrides?: Record<string, unknown>;
  node_overrides?: Record<string, unknown>;
  policy_override?: Record<string, unknown>;
  /** Node ids to pass without running; each must be a skippable node of the chain. */
  skip_nodes?: string[];
  /** A gate's reviewer agent decides first; left out, as the source has it. */
  auto_gate?: boolean;
  budget_usd?: number | null;
  base_branch?: string;
  /** When `repo` names a workspace: the members to run on (default every member). */
  members?: string[];
  /** Beads the item implements, linked by hand (`--implements`). */
  implements?: string[];
  /** Items it comes after (ids of this instance); a start while one has not completed blocks it. */
  after?: string[];
  /** The tracker issue auto-intake files the item for. */
  issue?: { tracker: IssueTracker; id: string; priority: number | null; url: string | null };
}

/** The issues an item is filed with: auto-intake's first, then the beads linked by hand. */
function issuesOf(input: IntakeInput): ItemIssue[] {
  const auto: ItemIssue[] = input.issue ? [{ ...input.issue, how: 'auto_intake', closing: 'open' }] : [];
  const byHand = (input.implements ?? [])
    .filter((id) => !(input.issue?.tracker === 'beads' && input.issue.id === id))
    .map((id): ItemIssue => ({
      tracker: 'beads',
      id,
      priority: null,
      how: 'implements',
      closing: 'open',
      url: null,
    }));
  return [...auto, ...byHand];
}

export interface IntakeDeps {
  /** Where failures that cannot be answered (cleanup after a committed move) are told. */
  log?: Pick<Logger, 'error' | 'warn'>;
  store: Store;
  config: ConfigState;
  repos: ReposService;
  chains: ChainCatalog;
  events: EventLog;
  attachmentsDir: string;
  /** The runtime's one clock: filing times and the idempotency window read it. */
  clock: Clock;
}

export interface CheckedIntake {
  title: string;
  description: string;
  /** The repository, or a workspace's root. */
  repo: RepoEntry;
  workspace: ItemWorkspace | null;
  chain: ChainSummary;
  attachments: PreparedAttachment[];
}

function isDir(p: string): boolean {
  return statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

/** Chain named by the request, else the repo's default, else `default` (spec: trigger body). */
function chainName(input: IntakeInput, repo: RepoEntry): string {
  if (
    input.chain !== undefined &&
    input.chain_template !== undefined &&
    input.chain !== input.chain_template
  ) {
    throw new JigError('chain_conflict', { chain: input.chain, chain_template: input.chain_template });
  }
  return input.chain ?? input.chain_template ?? repo.default_chain ?? 'default';
}

/** A repository an item runs on must be there, enabled, and its steering known; `what` names it. */
function usable(deps: IntakeDeps, repo: RepoEntry, what = repo.path): void {
  if (!isDir(repo.path)) throw new JigError('repo_gone', { path: what });
  if (repo.enabled === false) {
    const why =
      repo.test_command === undefined
        ? 'decide its test command first (test_command, or "" for none)'
        : 'enable it in repos.yaml';
    throw new JigError('repo_disabled', { path: what, why });
  }
  // The repo's steering is read at every launch: a name the library does not define is refused now.
  const steering = deps.config.runningLibrary?.model?.steering ?? {};
  const unknown = (repo.steering ?? []).filter((name) => !Object.hasOwn(steering, name));
  if (unknown.length > 0) {
    throw new JigError('repo_steering_invalid', { path: what, names: unknown.join(', ') });
  }
}

const membersField = (message: string): JigError =>
  new JigError(
    'validation_failed',
    { reason: `body.members: ${message}` },
    { issues: [{ field: 'body.members', message }] },
  );

/**
 * `repo` is a connected repository's path, or a workspace's name (docs/workspaces.md): then the
 * item runs on the workspace's root with the selected members, each of which must be usable; an
 * error names the member it is about.
 */
function repoOrWorkspace(
  deps: IntakeDeps,
  input: IntakeInput,
): { repo: RepoEntry; workspace: ItemWorkspace | null } {
  const repo = deps.repos.find(input.repo);
  if (repo) {
    if (input.members !== undefined)
      throw membersField(`${input.repo} is a repository, not a workspace; members are for a workspace`);
    usable(deps, repo);
    return { repo, workspace: null };
  }
  const sel = deps.repos.selectWorkspace(input.repo, input.members);
  if (!sel) throw new JigError('repo_not_connected', { path: input.repo });
  if (!sel.ok) throw membersField(sel.message);
  const root = sel.root;
  if (!root)
    throw new JigError('repo_not_connected', { path: `${sel.rootId} (the root of workspace ${sel.name})` });
  usable(deps, root, `${root.path} (the root of workspace ${sel.name})`);
  const members = sel.members.map((m) => {
    const what = `${m.repository} (member ${m.name} of workspace ${sel.name})`;
    if (!m.entry) throw new JigError('repo_not_connected', { path: what });
    usable(deps, m.entry, `${m.entry.path} (member ${m.name} of workspace ${sel.name})`);
    return {
      name: m.name,
      repository: m.repository,
      repo_path: m.entry.path,
      path: m.path,
      base_branch: null,
      base_ref: null,
      worktree_path: null,
    };
  });
  return { repo: root, workspace: { name: sel.name, root_pointer: sel.root_pointer, members } };
}

/**
 * `skip_nodes` must name nodes of the chain that allow a skip (`skippable: false` refuses it, as
 * it refuses `item skip`): a name that matches nothing would silently run the node.
 */
export function checkSkipNodes(chain: ChainSummary, ids: readonly string[]): void {
  for (const id of ids) {
    const node = chain.nodes.find((n) => n.id === id);
    const why = !node
      ? `${id} is not a node of chain ${chain.id} (its nodes: ${chain.nodes.map((n) => n.id).join(', ')})`
      : node.skippable
        ? null
        : `node ${id} of chain ${chain.id} is not skippable`;
    if (why) {
      throw new JigError(
        'validation_failed',
        { reason: `body.skip_nodes: ${why}` },
        { issues: [{ field: 'body.skip_nodes', message: why }] },
      );
    }
  }
}

/** Every check of a create, in the order a person fixes them; files nothing. */
export function checkIntake(deps: IntakeDeps, input: IntakeInput): CheckedIntake {
  const blocked = deps.config.newWorkBlocked;
  if (blocked) throw new JigError('new_work_refused', blocked);

  const t = checkTitle(input.title);
  if (!t.ok) throw new JigError('invalid_title', { message: t.message }, { field: 'title' });

  if (input.repo.trim() === '')
    throw new JigError('validation_failed', { reason: 'body.repo: name a connected repo' });
  const { repo, workspace } = repoOrWorkspace(deps, input);

  const chainId = chainName(input, repo);
  const chain = requireChain(deps.chains, chainId);

  for (const [root, value] of [
    ['agent_overrides', input.agent_overrides],
    ['node_overrides', input.node_overrides],
  ] as const) {
    const bad = badModelIds(root, value);
    if (bad.length > 0)
      throw new JigError('invalid_model_override', { field: bad[0]!.field, value: bad[0]!.value });
  }
  checkNodeOverrides(input.node_overrides);

  if (input.policy_override !== undefined) {
    const bad = policyOverrideProblem(input.policy_override);
    if (bad)
      throw new JigError(
        'validation_failed',
        { reason: `body.${bad.field}: ${bad.message}` },
        { issues: [{ field: `body.${bad.field}`, message: bad.message }] },
      );
  }

  if (input.skip_nodes !== undefined) checkSkipNodes(chain, input.skip_nodes);

  const attachments: PreparedAttachment[] = [];
  for (const kind of ['spec', 'plan'] as const) {
    const a = input.attachments?.[kind];
    if (a) attachments.push(prepareAttachment(kind, a, repo.path));
  }
  return { title: t.title, description: input.description, repo, workspace, chain, attachments };
}

/** What `work_item_created` says beyond the item itself: the item duplicated, or the schedule. */
export type CreatedExtra = Pick<EventPayload<'work_item_created'>, 'duplicate_of' | 'schedule'>;

export interface FileOptions {
  source: ItemRecord['source'];
  by: EventActor;
  extraPayload?: CreatedExtra;
  /** A trigger's `Idempotency-Key`, recorded with the item in its transaction. */
  idempotency?: { key: string; sha256: string; since: string };
  /**
   * Decided first in the filing's transaction (a schedule's minute, claimFiring): false files
   * nothing and throws FilingWithdrawn.
   */
  claim?: (db: Transaction<Database>) => Promise<boolean>;
}

/** The filing's claim was taken by another (a schedule's minute another process filed). */
export class FilingWithdrawn extends Error {
  constructor() {
    super('another process filed it');
  }
}

/** The key was recorded by another request while this one was checked: that request's item wins. */
export class KeyTaken extends Error {
  constructor(readonly row: TriggerKey) {
    super(`idempotency key ${row.key} is taken`);
  }
}

/** Files a checked item, paused, with its `work_item_created` event in the same transaction. */
export async function fileItem(
  deps: IntakeDeps,
  input: IntakeInput,
  checked: CheckedIntake,
  opts: FileOptions,
): Promise<ItemRecord> {
  const now = stamp(deps.clock);
  const id = newItemId();
  const issues = issuesOf(input);
  const rec: ItemRecord = {
    id,
    title: checked.title,
    description: checked.description,
    status: 'paused',
    chain: checked.chain.id,
    repo: checked.repo.path,
    branch: branchName(id, checked.title),
    base_branch: input.base_branch ?? null,
    base_ref: null,
    source: opts.source,
    attachments: {},
    agent_overrides: input.agent_overrides ?? {},
    node_overrides: input.node_overrides ?? {},
    policy_override: input.policy_override ?? {},
    skip_nodes: input.skip_nodes ?? [],
    auto_gate: input.auto_gate ?? null,
    budget_usd: input.budget_usd ?? null,
    spent_usd: 0,
    spent_tokens: 0,
    chain_definition: null,
    policy_snapshot: null,
    current_node: null,
    stop_kind: null,
    stop_reason: null,
    suggested_action: null,
    worktree_path: null,
    created_at: now,
    updated_at: now,
    started_at: null,
    ended_at: null,
    archived_at: null,
    walk: null,
    steer: null,
    queued_at: null,
    workspace: checked.workspace,
    run_epoch: 0,
    gate_request: null,
    state_error: null,
  };
  // What the store keeps of it: the answer to the filing is what every later read gives.
  let filed = rec;
  try {
    for (const a of checked.attachments)
      rec.attachments[a.kind] = storeAttachment(deps.attachmentsDir, id, a);
    await deps.events.transact(async (uow) => {
      if (opts.claim && !(await opts.claim(uow.db))) throw new FilingWithdrawn();
      const key = opts.idempotency;
      if (key) {
        // Decided inside the transaction: of two requests with one key, exactly one files.
        const earlier = await findTriggerKey(uow.db, key.key, key.since);
        if (earlier) throw new KeyTaken(earlier);
      }
      filed = await insertItem(uow.db, rec);
      if (input.after && input.after.length > 0) {
        // A new item has no dependents, so no cycle can close: only unknown ids are refused.
        const refused = await setDependencies(uow.db, id, input.after, now);
        if (refused) throw dependencyRefusal(refused);
      }
      for (const a of checked.attachments) await saveAttachmentText(uow.db, id, a.kind, a.text);
      await linkIssues(uow.db, id, issues);
      if (key) {
        await recordTriggerKey(
          uow.db,
          { key: key.key, request_sha256: key.sha256, work_item_id: id, created_at: now },
          key.since,
        );
      }
      await uow.emit({
        work_item_id: id,
        type: 'work_item_created',
        by: opts.by,
        payload: {
          title: rec.title,
          repo: rec.repo,
          chain: rec.chain,
          branch: rec.branch,
          source: rec.source,
          status: rec.status,
          ...(rec.workspace
            ? { workspace: rec.workspace.name, members: rec.workspace.members.map((m) => m.name) }
            : {}),
          ...(input.after && input.after.length > 0 ? { after: [...new Set(input.after)] } : {}),
          ...(issues.length > 0
            ? { issues: issues.map((i) => ({ tracker: i.tracker, id: i.id, priority: i.priority })) }
            : {}),
          ...opts.extraPayload,
        },
      });
      if (checked.attachments.length > 0) {
        await uow.emit({
          work_item_id: id,
          type: 'work_item_attachments',
          by: opts.by,
          payload: { kinds: checked.attachments.map((a) => a.kind) },
        });
      }
    });
  } catch (err) {
    // Nothing was filed, so nothing filed for it stays behind.
    if (checked.attachments.length > 0)
      rmSync(join(deps.attachmentsDir, id), { recursive: true, force: true });
    if (isJigError(err) || err instanceof KeyTaken || err instanceof FilingWithdrawn) throw err;
    throw new JigError('intake_failed', { reason: (err as Error).message }, {}, { cause: err });
  }
  return filed;
}
