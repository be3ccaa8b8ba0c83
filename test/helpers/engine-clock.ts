import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ManualClock } from '../../src/runtime/clock.js';
import { startServer, type RunningServer } from './built.js';
import { harnessesYaml, setRepoKeys } from './agents.js';
import { eventually } from './eventually.js';
import { events, type Served } from './engine.js';
import { makeRepo } from './git.js';
import { http, tempHome } from './server.js';
import { serverEnv } from './test-store.js';

/**
 * An in-process server whose engine reads a ManualClock: a wall clock runs out when the test moves
 * the clock (the sweep runs on it once a second of its time), not when real seconds pass. The tasks
 * are real child processes and run in real time.
 */
export interface ClockedJig {
  url: string;
  home: string;
  clock: ManualClock;
  server: RunningServer;
}

const running: ClockedJig[] = [];

/** Starts an in-process server on `home`, its clock at `at` (real now by default). */
export async function bootClocked(home: string, at = Date.now()): Promise<ClockedJig> {
  const clock = new ManualClock(at);
  const server = await startServer({ port: 0, host: '127.0.0.1', env: await serverEnv(home), clock });
  const jig = { url: server.url, home, clock, server };
  running.push(jig);
  return jig;
}

/**
 * What engineSetup and agentSetup make (a home with the given chains and policy, a connected repo),
 * served in-process on a ManualClock; `agents` puts the fake agent CLIs in harnesses.yaml. The clock
 * is moved half a sweep on first, so no wall clock starts on a tick of the sweep (once a second from
 * the boot): a cap is seen strictly past its limit, as with real time.
 */
export async function clockedSetup(
  chains: Record<string, string>,
  opts: {
    home?: string;
    policy?: string;
    agents?: boolean;
    env?: Record<string, string>;
  } = {},
): Promise<{ jig: ClockedJig; repo: string; home: string; clock: ManualClock }> {
  const home = opts.home ?? tempHome();
  mkdirSync(join(home, 'config', 'chains'), { recursive: true });
  for (const [id, text] of Object.entries(chains))
    writeFileSync(join(home, 'config', 'chains', `${id}.yaml`), text);
  if (opts.agents) writeFileSync(join(home, 'config', 'harnesses.yaml'), harnessesYaml());
  if (opts.policy) writeFileSync(join(home, 'config', 'policy.yaml'), opts.policy);
  const jig = await bootClocked(home);
  await jig.clock.advance(500);
  const repo = makeRepo();
  const r = await http(`${jig.url}/api/repos`, {
    method: 'POST',
    body: { path: repo, test_command: '', setup_command: '' },
  });
  expect(r.status, r.text).toBe(201);
  if (opts.env) setRepoKeys(home, repo, { env: opts.env });
  return { jig, repo, home, clock: jig.clock };
}

const tick = () => new Promise((r) => setTimeout(r, 20));

/**
 * Closes every in-process server once its walks are at rest: no session running and no item
 * running (a walk still going when the store closes would fail in the background). A test that
 * leaves an item running cancels it first.
 */
export async function closeClocked(): Promise<void> {
  const problems: string[] = [];
  for (const jig of running.splice(0)) {
    const db = jig.server.inst.store.db;
    const busy = async (): Promise<string> => {
      const sessions = await db
        .selectFrom('worker_sessions')
        .select('id')
        .where('status', '=', 'running')
        .execute();
      const items = await db.selectFrom('work_items').select('id').where('status', '=', 'running').execute();
      return [...sessions, ...items].map((r) => r.id).join(', ');
    };
    try {
      await eventually(async () => (await busy()) === '', {
        what: 'no session and no item running',
      });
    } catch {
      problems.push(`${jig.home}: still running: ${await busy()}`);
    }
    // The walks return a few reads after their last session ended: nothing tells when, so a grace.
    for (let i = 0; i < 5; i++) await tick();
    await jig.server.close();
  }
  if (problems.length > 0) throw new Error(problems.join('\n'));
}

// ---------- for the wall-clock tests ----------

export const ended = (i: any) => i.status !== 'running' && i.status !== 'queued';
export const capStop = (i: any) => i.status === 'stopped' && i.stop?.kind === 'cap';
export const ofType = (ev: any[], type: string) => ev.filter((e) => e.type === type);

/** `reason` for a wall clock that ran out, with the minutes used left open (they are measured). */
export const capReason = (where: string, limit: string, gate = '') =>
  new RegExp(
    `^total_time_cap_minutes of ${where} reached: \\d+\\.\\d of ${limit} minutes of wall clock, less pauses${gate} \\(raise it with the item's policy_override\\)$`,
  );

/** The `n`th event of `type` of the item, once it is recorded. */
export const eventOf = (jig: Served, id: string, type: string, n = 1) =>
  eventually(
    async () => {
      const found = ofType(await events(jig, id), type);
      return found.length >= n && found[n - 1];
    },
    { what: `${n} ${type} event(s) of ${id}` },
  );
