import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decisionFor, type ChainTestReport, type ChainTestScript } from '../../contract/chain-test.js';
import type { RepoEntry } from '../../contract/config/repos.js';
import { JigError } from '../../contract/errors.js';
import type { EventRecord } from '../../contract/events.js';
import type { Recording } from '../../contract/recording.js';
import { liveServer } from '../home/pid-lock.js';
import { startChildServer } from './child-server.js';
import { divergencesOf } from './replay.js';
import { buildReport, type EndState, type SessionRow } from './report.js';
import { prepareTestHome } from './test-home.js';

/*
 * Runs one chain test (issue 51, ADR 0041): a test home, its own server, one item filed on the
 * clone and started, each gate it waits at decided as the script says, until it completes, stops
 * for anything else, waits at a gate the script does not decide, or the time is up. Everything is
 * removed afterwards; what is left is the report.
 */

/** The test's own server could not be started or set up: nothing of the script was tried. */
export class ChildFailed extends Error {}

const PREFIX = 'jig-chain-test-';

/** Removes what a run cut short by a stop of the server left in `tmp` (one run at a time). */
export function removeLeftovers(tmp: string): void {
  let names: string[] = [];
  try {
    names = readdirSync(tmp);
  } catch {
    return;
  }
  for (const n of names) {
    if (!n.startsWith(PREFIX)) continue;
    // A test server still running there (its parent was killed before it noticed) is ended first.
    const live = liveServer(join(tmp, n, 'home', 'run', 'jig.pid'));
    if (live) {
      try {
        process.kill(live.pid, 'SIGKILL');
      } catch {
        // Gone in between.
      }
    }
    rmSync(join(tmp, n), { recursive: true, force: true });
  }
}

interface ItemView extends EndState {
  current_node: string | null;
  gate_request: number | null;
}

const POLL_MS = 100;
const ENDED = new Set(['completed', 'cancelled', 'abandoned', 'waiting', 'paused', 'blocked']);

async function call<T>(url: string, method: string, body?: unknown): Promise<{ status: number; json: T }> {
  const r = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, json: (await r.json()) as T };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function runChainTest(opts: {
  chain: string;
  script: ChainTestScript;
  configDir: string;
  addonsDir: string;
  repo: RepoEntry;
  /** A replay: the recording the script was made from, to say where the run went another way. */
  replay?: Recording;
  /** A draft's files laid over the copied config (config-relative path → text, null: removed). */
  overlay?: Record<string, string | null>;
  /** Where the test home goes (default: the system's temp folder); removed at the end. */
  tmp?: string;
}): Promise<ChainTestReport> {
  const dir = mkdtempSync(join(opts.tmp ?? tmpdir(), PREFIX));
  try {
    let t: ReturnType<typeof prepareTestHome>;
    let server: Awaited<ReturnType<typeof startChildServer>>;
    try {
      t = prepareTestHome({
        dir,
        configDir: opts.configDir,
        addonsDir: opts.addonsDir,
        repo: opts.repo,
        agents: opts.script,
        commands: opts.script.commands,
        ...(opts.overlay ? { overlay: opts.overlay } : {}),
      });
      server = await startChildServer(t.home, t.env);
    } catch (err) {
      throw new ChildFailed(err instanceof Error ? err.message : String(err));
    }
    try {
      const filed = await call<{ id?: string; detail?: string }>(`${server.url}/api/work-items`, 'POST', {
        title: opts.script.title,
        repo: t.repo,
        chain: opts.chain,
        start: true,
      });
      if (filed.status !== 201 || !filed.json.id)
        throw new JigError('validation_failed', {
          reason: `the test item could not be filed: ${filed.json.detail ?? `HTTP ${filed.status}`}`,
        });
      const id = filed.json.id;
      const itemUrl = `${server.url}/api/work-items/${id}`;
      const decided = new Map<string, number>();
      // The request last decided: read again before the walk moved on, it is not decided twice.
      let answered: number | null = null;
      const deadline = Date.now() + opts.script.timeout_s * 1000;
      let ended = 'the timeout';
      let finished = false;
      let item: ItemView;
      for (;;) {
        item = (await call<ItemView>(itemUrl, 'GET')).json;
        if (ENDED.has(item.status) || (item.status === 'stopped' && item.stop?.kind !== 'gate')) {
          ended = item.status === 'stopped' ? `stopped (${item.stop?.kind ?? 'unknown'})` : item.status;
          finished = true;
          break;
        }
        if (item.status === 'stopped' && item.current_node !== null && item.gate_request !== answered) {
          const gate = item.current_node;
          const n = decided.get(gate) ?? 0;
          const d = decisionFor(opts.script, gate, n);
          if (d === null) {
            ended = `the gate ${gate} waits and the script does not decide it`;
            break;
          }
          decided.set(gate, n + 1);
          answered = item.gate_request;
          const r =
            d === 'approve'
              ? await call<{ detail?: string }>(`${itemUrl}/gates/${gate}/approve`, 'POST', {
                  request: item.gate_request ?? undefined,
                })
              : await call<{ detail?: string }>(`${itemUrl}/gates/${gate}/reject`, 'POST', {
                  note: d.reject,
                  ...(d.node ? { node: d.node } : {}),
                  request: item.gate_request ?? undefined,
                });
          if (r.status !== 200) {
            ended = `the gate ${gate} refused the script's decision: ${r.json.detail ?? `HTTP ${r.status}`}`;
            break;
          }
          continue;
        }
        if (Date.now() > deadline) break;
        await sleep(POLL_MS);
      }
      // A run cut short ends its sessions: nothing of it goes on once its home is gone.
      if (!finished) await call(`${itemUrl}/cancel`, 'POST', {}).catch(() => undefined);
      const events = (await call<{ events: EventRecord[] }>(`${itemUrl}/events?limit=1000`, 'GET')).json
        .events;
      const sessions = (await call<{ sessions: SessionRow[] }>(`${itemUrl}/sessions`, 'GET')).json.sessions;
      const report = buildReport({
        chain: opts.chain,
        ended,
        finished,
        end: item,
        events,
        sessions,
        expect: opts.script.expect,
      });
      if (!opts.replay) return report;
      const frozen = (await call<{ nodes?: unknown }>(`${itemUrl}/chain`, 'GET')).json.nodes ?? [];
      const divergences = divergencesOf(opts.replay, report, frozen);
      return { ...report, ok: report.ok && divergences.length === 0, divergences };
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
