import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import type { ItemStatus } from '../../src/contract/item-status.js';
import { isEnded } from '../../src/core/items/status.js';
import { eventually } from './eventually.js';
import { cleanupAllBut, http, startJig, tempHome, type JigProcess } from './server.js';

/*
 * A `jig serve` start costs about a second of CPU, and the engine suite started one for nearly
 * every test, twice (SQLite, then PostgreSQL): some 130 of the suite's 390 starts (issue 42,
 * docs/testing.md). Those tests need nothing of a server but chains, a policy, harnesses and a
 * repository of their own, so a file that asks for it (`shareServerPerFile`) shares one server
 * among its tests and resets it between them through the API a person would use: the earlier
 * tests' unfinished items cancelled, the config folder put back as the server started on it, the
 * test's own chains, policy and harnesses written and reloaded. Each test still connects a
 * repository of its own, and items and events are read by id, so what one test left is never read
 * by the next.
 *
 * A test that gives a home of its own (it reads files there, or restarts the server on it) or a
 * server environment gets a server of its own, as before; so does a test after one that stopped
 * the shared server, or one that asks for other harnesses than the shared server runs.
 */

/** The config a test asks of its server. */
export interface HomeFiles {
  chains: Record<string, string>;
  policy?: string | undefined;
  harnesses?: string | undefined;
}

interface Shared {
  jig: JigProcess;
  home: string;
  harnesses: string | undefined;
  /** Every config file as the server started on it (relative path -> text): what a reset restores. */
  config: Map<string, string>;
}

let shared: Shared | null = null;
let sharing = false;

/**
 * Called by a file whose tests need nothing of a server but their chains, policy, harnesses and
 * repository (the engine suite): its tests share one server. Other files keep a server per setup:
 * their tests change more of a server than its config (add-ons, the content store, a harness's
 * rate limit kept in memory), or set up once anyway.
 */
export function shareServerPerFile(): void {
  sharing = true;
  // A worker runs file after file (vitest.config.ts, `isolate: false`): the next file shares only
  // if it asks, and never this file's server (cleanupAll, after the file, stopped it).
  afterAll(() => {
    sharing = false;
    shared = null;
  });
}

/**
 * After each test: every server and home the test made go, the shared server stays for the next
 * (cleanupAll after the file ends takes it too).
 */
export async function cleanupButShared(): Promise<void> {
  await cleanupAllBut(shared && alive(shared.jig) ? { proc: shared.jig.proc, home: shared.home } : null);
}

function write(home: string, files: HomeFiles): void {
  mkdirSync(join(home, 'config', 'chains'), { recursive: true });
  for (const [id, text] of Object.entries(files.chains))
    writeFileSync(join(home, 'config', 'chains', `${id}.yaml`), text);
  if (files.harnesses !== undefined) writeFileSync(join(home, 'config', 'harnesses.yaml'), files.harnesses);
  if (files.policy !== undefined) writeFileSync(join(home, 'config', 'policy.yaml'), files.policy);
}

/** The config folder's files, by path relative to it. */
function configFiles(home: string): Map<string, string> {
  const dir = join(home, 'config');
  const out = new Map<string, string>();
  for (const rel of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const path = join(dir, rel);
    if (statSync(path).isFile()) out.set(rel, readFileSync(path, 'utf8'));
  }
  return out;
}

/** Puts the config folder back as it was at the start: the files restored, the ones added since removed. */
function restoreConfig(s: Shared): void {
  const dir = join(s.home, 'config');
  for (const rel of configFiles(s.home).keys()) if (!s.config.has(rel)) rmSync(join(dir, rel));
  for (const [rel, text] of s.config) writeFileSync(join(dir, rel), text);
}

const alive = (jig: JigProcess): boolean => jig.proc.exitCode === null && jig.proc.signalCode === null;

/** Items that have not ended may still hold a slot, run a process or wake on a timer. */
const unfinished = (status: ItemStatus): boolean => !isEnded(status);

/**
 * Cancels what earlier tests left unfinished, until every item has ended: a cancel that met a move
 * in flight (409) is sent again on the next look.
 */
async function quiet(jig: JigProcess): Promise<void> {
  await eventually(
    async () => {
      const list = await http(`${jig.url}/api/work-items?archived=all&limit=500`);
      expect(list.status, list.text).toBe(200);
      const left = (list.json.items as { id: string; status: ItemStatus }[]).filter((i) =>
        unfinished(i.status),
      );
      for (const item of left)
        await http(`${jig.url}/api/work-items/${item.id}/cancel`, { method: 'POST', body: {} });
      return left.length === 0;
    },
    { what: "the earlier tests' items to end" },
  );
}

/**
 * The server for a test: the file's shared one, reset to the given config, or one of its own when
 * the test gives a home or a server environment.
 */
export async function serverFor(
  files: HomeFiles,
  opts: { home?: string | undefined; env?: Record<string, string> | undefined } = {},
): Promise<{ jig: JigProcess; home: string }> {
  if (!sharing || opts.home !== undefined || opts.env !== undefined) {
    const home = opts.home ?? tempHome();
    write(home, files);
    return { jig: await startJig({ home, ...(opts.env ? { env: opts.env } : {}) }), home };
  }
  if (!shared || !alive(shared.jig) || shared.harnesses !== files.harnesses) {
    // Started on the seeded config (and the harnesses asked for), kept to restore between tests.
    const home = tempHome();
    write(home, { chains: {}, harnesses: files.harnesses });
    const jig = await startJig({ home });
    shared = { jig, home, harnesses: files.harnesses, config: configFiles(home) };
  }
  const s = shared;
  await quiet(s.jig);
  restoreConfig(s);
  write(s.home, files);
  // As a start would: a file the test means to be refused is reported, and the rest loaded.
  const r = await http(`${s.jig.url}/api/apply/reload`, { method: 'POST' });
  expect([200, 422], r.text).toContain(r.status);
  return { jig: s.jig, home: s.home };
}
