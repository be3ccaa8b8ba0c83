import { isJigError } from '../../contract/errors.js';
import type { IntakeCheck, IntakeSkip } from '../../contract/intake-checks.js';
import type { RepoEntry } from '../../contract/config/repos.js';
import type { Store } from '../../store/database.js';
import { listIntakeChecks, recordIntakeCheck } from '../../store/intake-checks.js';
import { upsertEntry } from '../../store/search.js';
import { filedIssues, liveItemsOf } from '../../store/item-issues.js';
import { activeCount } from '../../store/slots.js';
import type { Clock, TimerHandle } from '../clock.js';
import type { ConfigState } from '../config/config-state.js';
import type { ChainCatalog } from '../items/chain-catalog.js';
import type { ItemsService } from '../items/items-service.js';
import type { ItemRecord } from '../../store/work-items.js';
import type { ItemStatus } from '../../contract/item-status.js';
import { stamp } from '../clock.js';
import { todaySpend } from '../workers/item-spend.js';
import { issueName, IssueTracker } from '../../contract/item-issues.js';
import { readSources, type IntakeIssue } from './sources.js';
import type { PollerLog } from './schedule-poller.js';

export interface AutoIntakeDeps {
  config: Pick<ConfigState, 'intake' | 'policy' | 'invalidPolicy' | 'onReload'>;
  /** The connected repositories; throws when repos.yaml does not load. */
  repos: { entries(): RepoEntry[] };
  chains: ChainCatalog;
  items: Pick<ItemsService, 'create'>;
  /** Starts a filed item (the engine's resume). */
  start(id: string): Promise<ItemRecord>;
  store: Store;
  log: PollerLog;
  clock: Clock;
  env?: NodeJS.ProcessEnv;
}

const TRACKER_NAMES: Record<IssueTracker, string> = {
  beads: 'Bead',
  github: 'GitHub',
  gitlab: 'GitLab',
  gitea: 'Gitea',
  linear: 'Linear',
  jira: 'Jira',
};

const isPriority = (p: unknown): p is number => typeof p === 'number' && Number.isInteger(p);

/**
 * Auto-intake (docs/intake.md): while `intake.yaml` says `enabled`, every `interval_s` it reads the
 * ready issues of each enabled repository (or those `repos` lists) — beads, and its forge's issues
 * carrying the label — and of Linear and Jira when configured, and files and starts an item for each
 * one the rules let through, recording every poll in the checks log. Polls run one at a time; a
 * reload rearms the timer with the new settings.
 */
export class AutoIntake {
  private timer: TimerHandle | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private unsubscribe: (() => void) | null = null;
  private state: 'new' | 'running' | 'stopped' = 'new';
  /** The settings the timer was armed with, so a reload that changed nothing keeps its rhythm. */
  private armedFor: string | null = null;

  constructor(private readonly d: AutoIntakeDeps) {}

  /** Polls at once when enabled, then every `interval_s`; follows reloads. */
  start(): void {
    if (this.state === 'running') return;
    this.state = 'running';
    this.armedFor = null;
    this.unsubscribe = this.d.config.onReload(() => this.rearm());
    this.rearm();
  }

  async stop(): Promise<void> {
    if (this.state === 'stopped') return;
    this.state = 'stopped';
    if (this.timer) this.d.clock.clearTimer(this.timer);
    this.timer = null;
    this.unsubscribe?.();
    await this.queue;
  }

  /** Whether polls run (intake.yaml loads and says `enabled`). */
  /** The polls recorded, newest first (the newest 500 are kept). */
  checks(limit: number): Promise<IntakeCheck[]> {
    return listIntakeChecks(this.d.store.db, limit);
  }

  get enabled(): boolean {
    return this.d.config.intake?.enabled === true;
  }

  /** One poll now, after any in progress; answers the check it recorded. */
  poll(): Promise<IntakeCheck> {
    const run = this.queue.then(() => this.runPoll());
    this.queue = run.catch(() => undefined);
    return run;
  }

  private rearm(): void {
    if (this.state !== 'running') return;
    const intake = this.d.config.intake;
    const key = intake?.enabled ? String(intake.interval_s) : null;
    if (key === this.armedFor && (this.timer || key === null)) return;
    if (this.timer) this.d.clock.clearTimer(this.timer);
    this.timer = null;
    this.armedFor = key;
    if (!intake?.enabled) return;
    this.d.log.info({ interval_s: intake.interval_s }, 'auto-intake on');
    this.arm(0);
  }

  private arm(delay: number): void {
    this.timer = this.d.clock.setTimer(() => void this.onTimer(), delay);
  }

  private async onTimer(): Promise<void> {
    this.timer = null;
    try {
      if (this.enabled) await this.poll();
    } catch (err) {
      this.d.log.error({ err }, 'auto-intake poll failed');
    } finally {
      const intake = this.d.config.intake;
      if (this.state === 'running' && intake?.enabled && !this.timer) this.arm(intake.interval_s * 1000);
    }
  }

  private async runPoll(): Promise<IntakeCheck> {
    const at = stamp(this.d.clock);
    const started: string[] = [];
    const skipped: IntakeSkip[] = [];
    let ready = 0;
    const repos = this.reposToPoll();
    const intake = this.d.config.intake;
    if (repos === null || !intake) {
      skipped.push({ bead: null, reason: 'invalid_config' });
    } else {
      const read = await readSources(intake, repos, {
        env: this.d.env ?? process.env,
        timeoutMs: (this.d.config.policy?.forge_cli_timeout_s ?? 120) * 1000,
      });
      // A repository without beads or a forge is normal: not worth a line at every poll.
      for (const p of read.problems)
        if (!p.quiet)
          this.d.log.warn(
            { source: p.source, reason: p.reason },
            `auto-intake: ${p.source} skipped: ${p.reason}`,
          );
      ready = read.issues.filter((i) => !i.blockedBy?.length).length;
      // Issues seen are searchable (docs/search.md), filed or not.
      for (const i of read.issues)
        await upsertEntry(this.d.store.db, {
          kind: 'issue',
          ref: issueName(i),
          work_item_id: null,
          repo: i.repo.path,
          title: `${i.tracker} ${i.id}: ${i.title}`,
          body: [i.description, i.url ?? ''].filter(Boolean).join('\n'),
        });
      await this.apply(read.issues, started, skipped);
    }
    const check = { at, ready, started, skipped };
    const id = await recordIntakeCheck(this.d.store.db, check);
    if (started.length > 0 || skipped.some((s) => s.reason === 'invalid_config'))
      this.d.log.info(
        { ready, started, skipped: skipped.length },
        `auto-intake: ${started.length} item(s) started`,
      );
    return { id, ...check };
  }

  /** The repositories a poll reads, or null when policy.yaml or repos.yaml does not load. */
  private reposToPoll(): RepoEntry[] | null {
    if (this.d.config.invalidPolicy !== null) {
      this.d.log.warn(
        { reason: this.d.config.invalidPolicy },
        'auto-intake: policy.yaml does not load; no poll',
      );
      return null;
    }
    let all: RepoEntry[];
    try {
      all = this.d.repos.entries();
    } catch (err) {
      this.d.log.warn({ reason: (err as Error).message }, 'auto-intake: repos.yaml does not load; no poll');
      return null;
    }
    const listed = this.d.config.intake?.repos ?? [];
    const enabled = all.filter((r) => r.enabled !== false);
    if (listed.length === 0) return enabled;
    for (const p of listed) {
      if (!enabled.some((r) => r.path === p))
        this.d.log.warn(
          { repo: p },
          `auto-intake: ${p} is listed in intake.yaml repos but is not a connected, enabled repo`,
        );
    }
    return enabled.filter((r) => listed.includes(r.path));
  }

  /** The issues of any tracker some item (any, ever) already implements, by name. */
  private async known(issues: readonly IntakeIssue[]): Promise<Set<string>> {
    const out = new Set<string>();
    for (const tracker of IssueTracker.options) {
      const ids = issues.filter((i) => i.tracker === tracker).map((i) => i.id);
      for (const id of await filedIssues(this.d.store.db, tracker, ids)) out.add(issueName({ tracker, id }));
    }
    return out;
  }

  /** The rules, in order, for every ready issue; files and starts the ones they let through. */
  private async apply(issues: IntakeIssue[], started: string[], skipped: IntakeSkip[]): Promise<void> {
    const db = this.d.store.db;
    const ceiling = this.d.config.intake?.priority_ceiling ?? 2;
    const policy = this.d.config.policy;
    const known = await this.known(issues);
    // The most urgent the ceiling allows go first, so a slot goes to a P2 before a P4; blocked
    // issues after every ready one, so a blocker read in this poll is filed before what it blocks.
    const rank = (i: IntakeIssue) =>
      (i.blockedBy?.length ? 100 : 0) + (isPriority(i.priority) ? i.priority : 99);
    const order = [...issues].sort((a, b) => rank(a) - rank(b));
    let free = (policy?.max_concurrent ?? 3) - (await activeCount(db));
    const daily = policy?.budget?.daily_usd ?? null;
    const spend = daily === null ? null : await todaySpend(this.d.store, this.d.clock);
    const overBudget = spend !== null && daily !== null && (spend.usd >= daily || spend.unpriced > 0);
    for (const issue of order) {
      const name = issueName(issue);
      const skip = (reason: IntakeSkip['reason']) => skipped.push({ bead: name, reason });
      const blocked = issue.blockedBy?.length ? await this.blockers(issue) : { after: [], waits: false };
      if (known.has(name)) skip('already_item');
      else if (issue.epic) skip('epic');
      else if (!isPriority(issue.priority) || issue.priority < ceiling) skip('above_priority_ceiling');
      else if (blocked === null) skip('blocked_by_unfiled');
      // A filing that will be blocked takes no slot: it waits on its blockers' items, not for room.
      else if (free <= 0 && !blocked.waits) skip('max_concurrent');
      else if (overBudget) skip('daily_budget');
      else {
        const filed = await this.file(issue, issue.priority, blocked.after);
        if (filed === null) skip('invalid_config');
        else {
          started.push(filed.id);
          known.add(name);
          if (filed.status !== 'blocked') free -= 1;
        }
      }
    }
  }

  /**
   * The items a blocked issue comes after (every item implementing one of its blockers that can still
   * complete) and whether one has not completed yet (its start will be blocked, taking no slot); null
   * when a blocker has no such item yet (it is filed at a later poll, once its blocker is).
   */
  private async blockers(issue: IntakeIssue): Promise<{ after: string[]; waits: boolean } | null> {
    const ids = issue.blockedBy ?? [];
    const items = await liveItemsOf(this.d.store.db, issue.tracker, ids);
    if (ids.some((b) => !items.get(b)?.length)) return null;
    const found = new Map(ids.flatMap((b) => items.get(b) ?? []).map((i) => [i.id, i.status]));
    return { after: [...found.keys()], waits: [...found.values()].some((s) => s !== 'completed') };
  }

  /** Files and starts one issue's item; null (logged) when the chain or intake refuses it. */
  private async file(
    issue: IntakeIssue,
    priority: number,
    after: string[],
  ): Promise<{ id: string; status: ItemStatus } | null> {
    const repo = issue.repo;
    const name = issueName(issue);
    const chain = repo.default_chain ?? repo.default_chain_template ?? 'default';
    const refuse = (reason: string): null => {
      this.d.log.warn(
        { issue: name, repo: repo.path, chain, reason },
        `auto-intake: ${name} not filed: ${reason}`,
      );
      return null;
    };
    const found = this.d.chains.lookup(chain);
    if (!found.ok) return refuse(found.reason === 'unknown' ? `chain ${chain} is unknown` : found.detail);
    // Unattended work must reach a person before it lands: a chain without a gate never would.
    if (!found.chain.nodes.some((n) => n.kind === 'gate'))
      return refuse(`chain ${chain} has no gate; auto-intake starts only chains a person decides in`);
    const title = issue.title.trim() || issue.id;
    const from =
      issue.tracker === 'beads'
        ? `Bead ${issue.id} (P${priority}), filed by auto-intake.`
        : `${TRACKER_NAMES[issue.tracker]} issue ${issue.id} (P${priority}), filed by auto-intake${issue.url ? `: ${issue.url}` : '.'}`;
    const description = [issue.description.trim(), from].filter(Boolean).join('\n\n');
    let rec: ItemRecord;
    try {
      rec = await this.d.items.create(
        {
          title,
          description,
          repo: repo.path,
          chain,
          auto_gate: false,
          issue: { tracker: issue.tracker, id: issue.id, priority, url: issue.url },
          ...(after.length > 0 ? { after } : {}),
        },
        'auto_intake',
        'jig',
      );
    } catch (err) {
      return refuse(isJigError(err) ? err.message : `intake failed: ${(err as Error).message}`);
    }
    try {
      // Started while what it comes after has not completed, it is blocked until that has.
      return { id: rec.id, status: (await this.d.start(rec.id)).status };
    } catch (err) {
      // Filed but not started: it waits, paused, for a person; the bead is still its.
      this.d.log.error(
        { err, work_item_id: rec.id },
        `auto-intake: item ${rec.id} was filed but did not start`,
      );
    }
    return { id: rec.id, status: rec.status };
  }
}
