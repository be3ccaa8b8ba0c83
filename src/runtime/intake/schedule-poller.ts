import { isJigError } from '../../contract/errors.js';
import type { IntakeFile } from '../../contract/config/intake.js';
import type { PolicyFile } from '../../contract/config/policy.js';
import type { ReloadAnswer } from '../../contract/reload.js';
import { matches } from '../../core/cron/index.js';
import { cleanScheduleTitle } from '../../core/schedule/title.js';
import type { Store } from '../../store/database.js';
import { claimFiring, loadFirings, markFirings, pruneFirings } from '../../store/schedule-firings.js';
import { FilingWithdrawn } from '../items/intake.js';
import type { IntakeAnswer } from '../../contract/intake-route.js';
import type { ChainCatalog } from '../items/chain-catalog.js';
import type { ItemsService } from '../items/items-service.js';
import type { ReposService } from '../repos/repos-service.js';
import { intakeAnswer } from './intake-view.js';
import type { Clock, TimerHandle } from '../clock.js';
import { entryName, runningSchedules, type RunningSchedule } from './schedule-entries.js';

const MINUTE_MS = 60_000;
/**
 * A tick that runs late (a busy or briefly paused process) still checks the minutes it missed, up
 * to this many; a longer gap counts as down time, which is not made up (spec: When a schedule
 * fires, rule 1). A machine that slept for an hour does not file an hour of schedules on waking.
 */
export const CATCH_UP_MINUTES = 5;
/** Firings older than this cannot be fired twice any more (no tick looks that far back). */
const KEEP_FIRINGS_MINUTES = 60;

/** What the poller needs of the configuration (ConfigState in the server). */
export interface ScheduleConfig {
  readonly intake: IntakeFile | null;
  readonly intakeOff: boolean;
  readonly policy: PolicyFile | null;
  readonly invalidPolicy: string | null;
  readonly invalidIntake: string | null;
  onReload(listener: (what: ReloadAnswer) => void): () => void;
}

/** The log lines the poller writes (pino's Logger fits). */
export interface PollerLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface PollerDeps {
  config: ScheduleConfig;
  items: Pick<ItemsService, 'create'>;
  store: Store;
  log: PollerLog;
  clock: Clock;
}

export interface Firing {
  index: number;
  source: RunningSchedule['source'];
  /** ISO 8601 UTC start of the minute fired. */
  minute: string;
  item_id: string;
}

export interface Skip {
  index: number;
  source: RunningSchedule['source'];
  minute: string;
  /** A catalogue code for a refused filing; `blank_title` when title and description are blank. */
  code: string;
  reason: string;
}

export interface TickReport {
  /** The minutes checked, oldest first (more than one when a late tick catches up). */
  minutes: string[];
  fired: Firing[];
  skipped: Skip[];
  /** Why nothing was checked at all (policy.yaml does not load), else null. */
  tick_skipped: string | null;
}

const iso = (minute: number): string => new Date(minute * MINUTE_MS).toISOString();

/**
 * The schedule poller (spec: When a schedule fires). One per server; it runs while its process
 * leads (store/leader.ts), and the store's firings keep a minute from firing twice across processes.
 *
 * - A timer wakes it at each UTC minute boundary; each tick checks the current minute (and, when
 *   the tick is late, the minutes it missed, up to CATCH_UP_MINUTES). At start it checks the
 *   current minute at once; minutes before the start are never checked (no backfill).
 * - An entry fires at most once per minute: the last minute each entry fired is kept by entry
 *   identity, in memory and in the store, and the store's mark is written in the transaction that
 *   files its item. A second tick in the same minute, a reload, a restart or another process
 *   taking the lead within the minute finds it and files nothing; a process killed before its
 *   filing committed left no mark, and whoever ticks that minute next files it.
 * - The entries are rebuilt on every configuration reload, whether this process leads or not, so
 *   added schedules fire from the next minute without a restart, and a serve that takes the lead
 *   runs its files as they are now; entries that did not change keep their identity and firings.
 * - Every skip is a logged warning naming the entry, and the other entries due still fire.
 */
export class SchedulePoller {
  private entries: RunningSchedule[] = [];
  private lastFired = new Map<string, number>();
  private lastChecked: number | null = null;
  private timer: TimerHandle | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private state: 'new' | 'running' | 'stopped' = 'new';

  constructor(private readonly deps: PollerDeps) {
    this.rebuild(false);
    // Whether it leads or not: a serve that follows answers GET /api/intake with what its files
    // say, and when it takes the lead it runs them (issue 44).
    deps.config.onReload(() => this.rebuild(true));
  }

  /** The entries that run now, intake.yaml ones first. */
  get schedules(): readonly RunningSchedule[] {
    return this.entries;
  }

  /** `GET /api/intake`: the running settings and schedules, each with its next firing and problems. */
  view(repos: Pick<ReposService, 'find'>, chains: ChainCatalog): IntakeAnswer {
    return intakeAnswer({
      config: this.deps.config,
      repos,
      chains,
      schedules: this.entries,
      now: this.deps.clock.now(),
    });
  }

  /**
   * Loads the recent firings from the store, follows reloads, and checks the current minute at
   * once (a restart within a minute therefore fires only what had not fired in it).
   */
  async start(): Promise<void> {
    if (this.state === 'running') return;
    // Started again (leadership came back, store/leader.ts): minutes while another led are not ours.
    this.lastChecked = null;
    this.state = 'running';
    const since = this.minuteNow() - KEEP_FIRINGS_MINUTES;
    try {
      await pruneFirings(this.deps.store.db, since);
      for (const [key, m] of await loadFirings(this.deps.store.db, since)) {
        if (m > (this.lastFired.get(key) ?? -Infinity)) this.lastFired.set(key, m);
      }
    } catch (err) {
      // Never a reason not to serve: the ticks still fire, only a restart within this minute could double.
      this.deps.log.error({ err }, 'schedules: could not read the last firings from the store');
    }
    // stop() may have been called while the store answered.
    if (this.state === 'running') this.arm(0);
  }

  /** Stops the timer and waits for a tick in progress; no timer is left behind. */
  async stop(): Promise<void> {
    if (this.state === 'stopped') return;
    this.state = 'stopped';
    if (this.timer) this.deps.clock.clearTimer(this.timer);
    this.timer = null;
    await this.queue;
  }

  /**
   * Checks the minute `clock.now()` falls in (and missed ones), firing what is due. Ticks run one
   * at a time, in order. Public so that tests and the benchmark can drive a tick directly.
   */
  tick(): Promise<TickReport> {
    const run = this.queue.then(() => this.runTick());
    this.queue = run.catch(() => undefined);
    return run;
  }

  private minuteNow(): number {
    return Math.floor(this.deps.clock.now() / MINUTE_MS);
  }

  private arm(delay: number): void {
    this.timer = this.deps.clock.setTimer(() => this.onTimer(), delay);
  }

  private async onTimer(): Promise<void> {
    this.timer = null;
    try {
      await this.tick();
    } catch (err) {
      this.deps.log.error({ err }, 'schedule tick failed');
    } finally {
      if (this.state === 'running') {
        // To the next boundary from now: a timer that fired early rechecks a minute already
        // checked (nothing fires twice) and is armed again for the real boundary.
        const now = this.deps.clock.now();
        this.arm((Math.floor(now / MINUTE_MS) + 1) * MINUTE_MS - now);
      }
    }
  }

  private rebuild(reloaded: boolean): void {
    const { config, log } = this.deps;
    this.entries = runningSchedules(config.intake, config.intakeOff, config.policy);
    for (const e of this.entries) {
      if (e.cronError) {
        log.warn(
          { schedule: this.describe(e), reason: e.cronError.message },
          `schedule skipped: ${entryName(e)}: its cron cannot be used (${e.cronError.message}); it never fires until fixed`,
        );
      }
    }
    if (reloaded || this.entries.length > 0) {
      log.info(
        {
          schedules: this.entries.filter((e) => e.source === 'intake').length,
          policy_triggers: this.entries.filter((e) => e.source === 'policy.triggers').length,
          intake_off: config.intakeOff,
        },
        reloaded ? 'schedules reloaded' : 'schedules loaded',
      );
    }
  }

  private describe(e: RunningSchedule) {
    return { index: e.index, source: e.source, cron: e.cron, repo: e.repo, chain: e.chain ?? null };
  }

  private async runTick(): Promise<TickReport> {
    const now = this.minuteNow();
    let from = now;
    if (this.lastChecked !== null && this.lastChecked < now) {
      from = Math.max(this.lastChecked + 1, now - CATCH_UP_MINUTES + 1);
      if (from > this.lastChecked + 1) {
        this.deps.log.warn(
          { from: iso(this.lastChecked + 1), to: iso(from - 1) },
          `schedules: ${from - this.lastChecked - 1} minute(s) went unchecked (the process was paused or the clock jumped); they are not made up`,
        );
      }
    }
    this.lastChecked = Math.max(this.lastChecked ?? now, now);
    const report: TickReport = { minutes: [], fired: [], skipped: [], tick_skipped: null };
    for (let m = from; m <= now && this.state !== 'stopped'; m++) {
      report.minutes.push(iso(m));
      const invalid = this.deps.config.invalidPolicy;
      if (invalid !== null) {
        // The whole minute is skipped, with one line for it, not one per entry.
        report.tick_skipped = `policy.yaml does not load: ${invalid}`;
        this.deps.log.warn(
          { minute: iso(m), reason: invalid },
          'schedules: policy.yaml does not load; no schedule fires this minute',
        );
        continue;
      }
      await this.checkMinute(m, report);
    }
    if (now % KEEP_FIRINGS_MINUTES === 0) await this.forgetOld(now);
    return report;
  }

  private async checkMinute(minute: number, report: TickReport): Promise<void> {
    const at = new Date(minute * MINUTE_MS);
    const due = this.entries.filter(
      (e) =>
        e.compiled !== null && (this.lastFired.get(e.key) ?? -Infinity) < minute && matches(e.compiled, at),
    );
    if (due.length === 0) return;
    for (const e of due) this.lastFired.set(e.key, minute);
    const firedBefore = report.fired.length;
    try {
      for (const e of due) {
        // Stopping mid-minute: what was not filed is not marked either, so whoever ticks this
        // minute next (a restart, the next leader) files it.
        if (this.state === 'stopped') {
          for (const rest of due.slice(due.indexOf(e))) this.lastFired.delete(rest.key);
          break;
        }
        await this.fire(e, minute, report);
      }
    } finally {
      // One line per minute, not per firing: each item's own event already names its schedule.
      const fired = report.fired.slice(firedBefore);
      if (fired.length > 0)
        this.deps.log.info(
          {
            minute: iso(minute),
            fired: fired.length,
            work_item_ids: fired.slice(0, 50).map((f) => f.item_id),
          },
          `schedules fired: ${fired.length} item(s) filed`,
        );
    }
  }

  /**
   * Files one entry's item for `minute`, the minute claimed in the filing's own transaction: one
   * process files it, whichever ticks (claimFiring). A skip is marked apart, so that it is said once.
   */
  private async fire(e: RunningSchedule, minute: number, report: TickReport): Promise<void> {
    const skip = async (code: string, reason: string): Promise<void> => {
      const mine = await markFirings(this.deps.store.db, [e.key], minute).catch(() => [e.key]);
      if (mine.length === 0) return;
      report.skipped.push({ index: e.index, source: e.source, minute: iso(minute), code, reason });
      this.deps.log.warn(
        { schedule: this.describe(e), minute: iso(minute), code, reason },
        `schedule skipped: ${entryName(e)}: ${reason}`,
      );
    };
    const cleaned = cleanScheduleTitle(e.title, e.description);
    if (cleaned.blank) return skip('blank_title', 'its title and description are both blank');
    try {
      const rec = await this.deps.items.create(
        {
          title: cleaned.title,
          description: cleaned.description,
          repo: e.repo,
          ...(e.members ? { members: e.members } : {}),
          chain: e.chain,
          chain_template: e.chainTemplate,
          ...(e.after ? { after: e.after } : {}),
        },
        'schedule',
        'schedule',
        // `minute` is the minute fired for, which a late tick files a little after it.
        { schedule: { index: e.index, cron: e.cron, source: e.source, minute: iso(minute) } },
        (db) => claimFiring(db, e.key, minute),
      );
      report.fired.push({ index: e.index, source: e.source, minute: iso(minute), item_id: rec.id });
    } catch (err) {
      // Another process filed this minute (leadership changed hands within it): nothing to say.
      if (err instanceof FilingWithdrawn) return;
      if (isJigError(err)) await skip(err.code, err.message);
      else await skip('intake_failed', `intake failed: ${(err as Error).message}`);
    }
  }

  private async forgetOld(now: number): Promise<void> {
    const before = now - KEEP_FIRINGS_MINUTES;
    for (const [key, m] of this.lastFired) if (m < before) this.lastFired.delete(key);
    try {
      await pruneFirings(this.deps.store.db, before);
    } catch (err) {
      this.deps.log.warn({ err }, 'schedules: could not prune old firings');
    }
  }
}
