import { createHmac } from 'node:crypto';
import type { NotifyEvent, NotifyFile } from '../../contract/config/notify.js';
import { NOTIFY_EVENTS } from '../../contract/config/notify.js';
import { isKnownEvent, type EventRecord, type KnownEventRecord } from '../../contract/events.js';
import type { NotifyTestAnswer } from '../../contract/notify-route.js';
import { itemUrl, notifyBody, type NotifyFacts } from '../../core/notify/message.js';
import type { Store } from '../../store/database.js';
import { getItem } from '../../store/work-items.js';
import { stamp, type Clock, type TimerHandle } from '../clock.js';
import type { EventLog } from '../events/event-log.js';
import type { PollerLog } from '../intake/schedule-poller.js';
import type { NotifySettings } from './notify-settings.js';

/** At most one message per item in this window; what comes in between is sent at its end. */
const WINDOW_MS = 10_000;
/** Waits before the second and third attempt. */
const BACKOFF_MS = [2_000, 6_000];
const TIMEOUT_MS = 10_000;

export interface NotifierDeps {
  settings: NotifySettings;
  store: Store;
  events: EventLog;
  clock: Clock;
  log: PollerLog;
}

interface Delivery {
  sent: boolean;
  status: number | null;
  attempts: number;
  error: string | null;
}

const isNotifyEvent = (t: string): t is NotifyEvent => (NOTIFY_EVENTS as readonly string[]).includes(t);

/** Why the item needs a person, in the event's own words. */
function reasonOf(e: KnownEventRecord): string | null {
  if (e.type === 'work_item_needs_human') return e.payload.reason ?? null;
  if (e.type === 'gate_requested') return e.payload.message || null;
  if (e.type === 'permission_asked')
    return e.payload.tool_name ? `wants to use ${e.payload.tool_name}` : null;
  return null;
}

/** Where a message went, for logs: the host only (a webhook's path carries its token). */
const hostOf = (url: string): string => {
  try {
    return new URL(url).host;
  } catch {
    return 'the webhook';
  }
};

/**
 * Notifications (docs/notifications.md): when an item reaches an event notify.yaml lists (it waits
 * at a gate, stops for a person, asks for a permission, ends), Jig POSTs a message to the webhook,
 * signed with the secret when one is set; at most one per item per 10 s (the latest wins), three
 * attempts with backoff, then a `notification_failed` event. Delivery never holds an item up.
 */
export class Notifier {
  private unsubscribe: (() => void) | null = null;
  private readonly lastSent = new Map<string, number>();
  private readonly pending = new Map<string, { facts: NotifyFacts; timer: TimerHandle }>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private stopped = false;

  constructor(private readonly d: NotifierDeps) {}

  start(): void {
    if (this.unsubscribe) return;
    this.stopped = false;
    this.unsubscribe = this.d.events.subscribe((events: readonly EventRecord[]) => {
      const file = this.d.settings.file;
      if (!file.enabled || file.url === null) return;
      for (const e of events) {
        if (!e.work_item_id || !isKnownEvent(e) || !isNotifyEvent(e.type) || !file.events.includes(e.type))
          continue;
        this.track(this.onEvent(e));
      }
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    this.unsubscribe = null;
    for (const p of this.pending.values()) this.d.clock.clearTimer(p.timer);
    this.pending.clear();
    await Promise.allSettled([...this.inFlight]);
  }

  /** `POST /api/notify/test`: one message now, one attempt, outside the per-item window. */
  async test(): Promise<NotifyTestAnswer> {
    const file = this.d.settings.file;
    const facts: NotifyFacts = {
      work_item_id: 'test',
      title: 'Notifications',
      type: 'test',
      gate: null,
      reason: 'If you can read this, Jig reaches you here.',
      repo: '',
      url: file.base_url,
      at: stamp(this.d.clock),
    };
    return this.deliver(file, facts, 1);
  }

  private track(p: Promise<unknown>): void {
    const tracked = p.catch((err: unknown) => this.d.log.error({ err }, 'notification failed'));
    this.inFlight.add(tracked);
    void tracked.finally(() => this.inFlight.delete(tracked));
  }

  private async onEvent(e: KnownEventRecord): Promise<void> {
    const rec = await getItem(this.d.store.db, e.work_item_id);
    if (!rec) return;
    const file = this.d.settings.file;
    const facts: NotifyFacts = {
      work_item_id: rec.id,
      title: rec.title,
      type: e.type,
      gate: e.type === 'gate_requested' ? (e.payload.gate ?? e.node) : null,
      reason: reasonOf(e),
      repo: rec.repo,
      url: itemUrl(file.base_url, rec.id),
      at: e.at,
    };
    this.schedule(facts);
  }

  /** Sends now, or holds the latest message of the item until its window ends. */
  private schedule(facts: NotifyFacts): void {
    if (this.stopped) return;
    // Windows that have passed say nothing any more: the map holds only the last 10 s.
    const now = this.d.clock.now();
    for (const [id, at] of this.lastSent) if (now - at >= WINDOW_MS) this.lastSent.delete(id);
    const id = facts.work_item_id;
    const held = this.pending.get(id);
    if (held) {
      held.facts = facts;
      return;
    }
    const wait = (this.lastSent.get(id) ?? -Infinity) + WINDOW_MS - this.d.clock.now();
    if (wait <= 0) {
      this.send(facts);
      return;
    }
    const timer = this.d.clock.setTimer(() => {
      const due = this.pending.get(id);
      this.pending.delete(id);
      if (due) this.send(due.facts);
    }, wait);
    this.pending.set(id, { facts, timer });
  }

  private send(facts: NotifyFacts): void {
    this.lastSent.set(facts.work_item_id, this.d.clock.now());
    const file = this.d.settings.file;
    if (!file.enabled || file.url === null) return;
    this.track(
      this.deliver(file, facts, 1 + BACKOFF_MS.length).then(async (r) => {
        if (r.sent || this.stopped) return;
        this.d.log.warn(
          { work_item_id: facts.work_item_id, to: hostOf(file.url ?? ''), status: r.status },
          `notification to ${hostOf(file.url ?? '')} failed: ${r.error ?? ''}`,
        );
        await this.d.events.transact(async (uow) => {
          await uow.emit({
            work_item_id: facts.work_item_id,
            type: 'notification_failed',
            by: 'jig',
            payload: { event: facts.type, attempts: r.attempts, status: r.status, reason: r.error ?? '' },
          });
        });
      }),
    );
  }

  /** POSTs the message, up to `attempts` times with backoff; never throws. */
  private async deliver(file: NotifyFile, facts: NotifyFacts, attempts: number): Promise<Delivery> {
    if (file.url === null) return { sent: false, status: null, attempts: 0, error: 'no url is set' };
    const body = JSON.stringify(notifyBody(facts, file));
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'jig-notify',
      'x-jig-event': facts.type,
    };
    if (file.secret !== null)
      headers['x-jig-signature'] = `sha256=${createHmac('sha256', file.secret).update(body).digest('hex')}`;
    let last: Delivery = { sent: false, status: null, attempts: 0, error: null };
    for (let n = 1; n <= attempts; n++) {
      if (n > 1) await new Promise<void>((r) => this.d.clock.setTimer(r, BACKOFF_MS[n - 2] ?? 2_000));
      if (this.stopped && n > 1) break;
      try {
        const res = await fetch(file.url, {
          method: 'POST',
          headers,
          body,
          redirect: 'error',
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        await res.arrayBuffer().catch(() => undefined);
        last = {
          sent: res.ok,
          status: res.status,
          attempts: n,
          error: res.ok ? null : `the webhook answered ${res.status}`,
        };
      } catch (err) {
        // Never the error's own message: fetch's quote the URL, which may carry a token.
        const e = err as { name?: unknown; cause?: { code?: unknown } };
        const code = typeof e.cause?.code === 'string' ? e.cause.code : null;
        const what =
          e.name === 'TimeoutError' ? `no answer in ${TIMEOUT_MS / 1000} s` : (code ?? 'the request failed');
        last = {
          sent: false,
          status: null,
          attempts: n,
          error: `could not reach ${hostOf(file.url)}: ${what}`,
        };
      }
      if (last.sent) return last;
    }
    return last;
  }
}
