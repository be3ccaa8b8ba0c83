import { eventually } from './eventually.js';
import { GATED_CHAIN } from './gated-chain.js';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { makeRepo } from './git.js';
import { http, startJig, tempHome, type JigProcess } from './server.js';
import type { Pools } from './fuzz-values.js';

/*
 * The server the route fuzz runs against: a real `jig serve` in a temp home, a connected git repo,
 * and items in each state, so that path params can name real things too.
 */

const CHAINS: Record<string, string> = {
  // A subprocess build, then a gate: an item started on it stops at the gate `review`.
  gated: GATED_CHAIN,
  fails: `
nodes:
  - id: check
    kind: exec
    tasks:
      - id: nope
        kind: subprocess
        argv: ['false']
`,
  // Long enough to still run while the fuzz does; cancelled at the end so it outlives nothing.
  slow: `
nodes:
  - id: work
    kind: exec
    tasks:
      - id: sleep
        kind: subprocess
        run: sleep 20
`,
};

export type ItemState =
  'paused' | 'gate' | 'failed' | 'running' | 'completed' | 'cancelled' | 'archived' | 'attached';

export interface World {
  jig: JigProcess;
  port: number;
  repo: string;
  items: Record<ItemState, string>;
  pools: Pools;
}

async function must(jig: JigProcess, method: string, path: string, body?: unknown): Promise<any> {
  const r = await http(`${jig.url}${path}`, { method, ...(body === undefined ? {} : { body }) });
  if (r.status >= 300) throw new Error(`${method} ${path} answered ${r.status}: ${r.text}`);
  return r.json;
}

const until = (jig: JigProcess, id: string, ok: (item: any) => boolean): Promise<any> =>
  eventually(
    async () => {
      const item = await must(jig, 'GET', `/api/work-items/${id}`);
      if (!ok(item)) throw new Error(`the item is ${JSON.stringify(item)}`);
      return item;
    },
    { what: `item ${id} to reach the state` },
  );

export async function makeWorld(): Promise<World> {
  const home = tempHome('jig-fuzz-');
  mkdirSync(join(home, 'config', 'chains'), { recursive: true });
  for (const [id, text] of Object.entries(CHAINS))
    writeFileSync(join(home, 'config', 'chains', `${id}.yaml`), text);
  // Not supervised, whatever the test runner's environment: POST /api/apply/restart must refuse.
  // The update check reads a feed inline (a data: URL), so no request leaves the machine.
  const feed = `data:application/json,${encodeURIComponent('{"dist-tags":{"latest":"2.0.0"}}')}`;
  const jig = await startJig({
    home,
    env: { INVOCATION_ID: '', JIG_SUPERVISED: '', JIG_UPDATE_FEED: feed },
  });
  const port = Number(new URL(jig.url).port);
  const repo = makeRepo({ 'README.md': '# fuzz\n', 'docs/spec.md': '# a spec\n' });
  await must(jig, 'POST', '/api/repos', { path: repo, test_command: '' });

  const file = async (chain: string, extra: Record<string, unknown> = {}): Promise<any> =>
    must(jig, 'POST', '/api/work-items', { title: `Fuzz ${chain}`, repo, chain, ...extra });
  const paused = await file('gated');
  const attached = await file('gated', {
    attachments: { spec: { text: '# spec\n' }, plan: { path: 'docs/spec.md' } },
  });
  const gate = await file('gated', { start: true });
  const failed = await file('fails', { start: true });
  const running = await file('slow', { start: true });
  const cancelled = await file('gated');
  await must(jig, 'POST', `/api/work-items/${cancelled.id}/cancel`, { reason: 'fuzz' });
  const archived = await file('gated');
  await must(jig, 'POST', `/api/work-items/${archived.id}/cancel`, { reason: 'fuzz' });
  await must(jig, 'POST', `/api/work-items/${archived.id}/archive`);
  await until(jig, gate.id, (i) => i.stop?.kind === 'gate');
  await until(jig, failed.id, (i) => i.status === 'stopped');
  const completed = gate; // approved below, after its sessions are read
  const gateItem = await file('gated', { start: true });
  await until(jig, gateItem.id, (i) => i.stop?.kind === 'gate');
  await must(jig, 'POST', `/api/work-items/${completed.id}/gates/review/approve`);
  await until(jig, completed.id, (i) => i.status === 'completed');

  const sessions = (await must(jig, 'GET', `/api/work-items/${completed.id}/sessions`)).sessions.map(
    (s: any) => s.id,
  );
  const items: Record<ItemState, string> = {
    paused: paused.id,
    attached: attached.id,
    gate: gateItem.id,
    failed: failed.id,
    running: running.id,
    completed: completed.id,
    cancelled: cancelled.id,
    archived: archived.id,
  };
  const ids = Object.values(items);
  // Real values repeat, so that most valid-shaped requests name real things.
  const pools: Pools = {
    id: [...ids, 'wi_doesnotexist', sessions[0] ?? 's0'],
    gate: ['review', 'build', 'no_such_gate'],
    session: [...sessions, 'snope'],
    kind: ['spec', 'plan'],
    ids: [ids, [...ids, 'nope']],
    repo: [repo, repo, repo, `${repo}/docs`, '/tmp', '/nonexistent/repo', 'relative/path'],
    path: [repo, repo, repo, `${repo}/.git`, '/', '/dev/null', '/nonexistent/repo', 'docs/spec.md'],
    chain: ['gated', 'gated', 'fails', 'default', 'quick-task', 'no-such-chain'],
    // Pools by `<path>:<param>` win over pools by name, where a name means another thing.
    '/api/templates/chains/{id}/resolved:id': ['gated', 'default', 'merge-request', 'nope'],
    chain_template: ['gated', 'default', 'merge-request'],
    default_chain_template: ['gated', 'nope'],
    default_chain: ['gated', 'default', 'no-such-chain'],
    ref: ['tasks.implementer', 'nodes.verification', 'tasks.nope', 'nodes'],
    task: ['spec.main.author', 'spec.main.author', 'build.main.touch', 'nope'],
    node: ['build', 'review', 'finish', 'nope'],
    status: ['paused', 'stopped,paused', 'bogus', ''],
    title: ['Fuzzed item', 'Fuzzed item', 'Fuzzed item', 'two\nlines', 'tab\there', '\u202eevil'],
    action: ['pause', 'cancel', 'archive', 'restore'],
    cursor: ['', 'abc', 'eyJ4IjoxfQ', '9999999999'],
    password: ['wrong-password', ''],
    model: ['claude-sonnet-4-5', 'not a model', ''],
    'if-match': ['"nope"', '*'],
    'idempotency-key': ['key-1', 'key-1', 'key-2'],
  };
  return { jig, port, repo, items, pools };
}

/** sha256 of every file under `dir`, by path relative to it. */
export function hashTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

/** Lines of the server log at level error or above (pino: 50), for the failure report. */
export function serverErrors(home: string): string[] {
  let text = '';
  try {
    text = readFileSync(join(home, 'run', 'logs', 'server.log'), 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').filter((l) => /"level":(5|6)0/.test(l));
}
