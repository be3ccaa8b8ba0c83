import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CaseBuilder, operationsOf, type FuzzCase, type Operation } from './helpers/fuzz-cases.js';
import { hiddenOperations } from './helpers/hidden-routes.js';
import { failure, judge, pool, sendCase, wsAttempt, type Failure } from './helpers/fuzz-http.js';
import { Rng } from './helpers/fuzz-values.js';
import { hashTree, makeWorld, serverErrors, type World } from './helpers/fuzz-world.js';
import { cleanupAll, http } from './helpers/server.js';

/*
 * Issue 14: the fuzz of every route in /openapi.json, and of those it leaves out. Whatever arrives (schema-shaped bodies and
 * their mutations, random bytes, raw JSON oddities, bodies at the 1 MiB limit, nesting 10 to
 * 50 000 deep in every field, absurd path params, query strings and headers), the server answers
 * no 5xx, every 4xx is `{detail, code}` from the catalogue (or a documented HTML page), it stays
 * up, and no config file changes unless a valid request changed it.
 *
 * Bounded in count, not time: SEED and SHAPED_RUNS fix the requests; JIG_FUZZ_RUNS raises the
 * schema-shaped runs per operation (and JIG_FUZZ_SEED picks another seed) for a long local run.
 */
const SEED = 0x14_f0_22;
const SHAPED_RUNS = 20;
const CONCURRENCY = 4;
const PARTS = 4;

const seed = Number(process.env.JIG_FUZZ_SEED ?? SEED);
const shapedRuns = Number(process.env.JIG_FUZZ_RUNS ?? SHAPED_RUNS);

// Config files a valid request may rewrite: PUT /api/policy, POST/PATCH/DELETE /api/repos, PUT /api/notify, /api/theme, /api/access.
const WRITABLE = new Set(['policy.yaml', 'repos.yaml', 'notify.yaml', 'theme.yaml', 'access.yaml']);

let world: World;
let configBefore: Record<string, string>;
let operations: Operation[];
/** The statuses the document declares, per operation (`METHOD /path/{param}`). */
const declared = new Map<string, Set<string>>();
/** Codes of refusals that come before any route is matched: not an operation's to declare. */
const NOT_ROUTED = new Set(['route_not_found', 'headers_too_large']);

beforeAll(async () => {
  world = await makeWorld();
  configBefore = hashTree(join(world.jig.home, 'config'));
  const doc = await http(`${world.jig.url}/openapi.json`);
  expect(doc.status).toBe(200);
  // The routes the document leaves out (the board, the viewers, /mcp) are fuzzed all the same.
  operations = [...operationsOf(doc.json), ...hiddenOperations()];
  for (const [path, methods] of Object.entries(doc.json.paths as Record<string, Record<string, any>>))
    for (const [method, op] of Object.entries(methods))
      declared.set(`${method.toUpperCase()} ${path}`, new Set(Object.keys(op.responses ?? {})));
}, 120_000);

afterAll(async () => {
  // Task processes outlive the server by design: end the ones the fuzz left running first.
  if (world) {
    const list = await http(`${world.jig.url}/api/work-items?archived=all&limit=500`).catch(() => null);
    for (const it of list?.json?.items ?? [])
      if (['running', 'queued'].includes(it.status))
        await http(`${world.jig.url}/api/work-items/${it.id}/cancel`, {
          method: 'POST',
          body: { reason: 'end of fuzz' },
        });
  }
  await cleanupAll();
});

/** One line per (why, operation, kind of case), with a count and the first example in full. */
function groupFailures(failures: Failure[]): string[] {
  const groups = new Map<string, { n: number; first: Failure }>();
  for (const f of failures) {
    const key = `${f.why} | ${f.op} [${f.kind.replace(/-\d+$/, '')}]`;
    const g = groups.get(key);
    if (g) g.n++;
    else groups.set(key, { n: 1, first: f });
  }
  return [...groups].map(([key, g]) => `${key} x${g.n}\n  ${g.first.request}\n  -> ${g.first.answer}`);
}

/** Every case of one operation. */
function casesOf(op: Operation, b: CaseBuilder): FuzzCase[] {
  return [
    ...b.shaped(op, shapedRuns),
    ...b.bytes(op),
    ...b.deep(op),
    ...b.pathParams(op),
    ...b.queries(op),
    ...b.methods(op),
  ];
}

/*
 * Operations with a side effect beyond their data, and why each is still fuzzed as it is:
 * - POST /api/apply/restart stops the process when a service manager runs it. The server here is
 *   started unsupervised (INVOCATION_ID and JIG_SUPERVISED cleared), where the route answers 409
 *   `not_supervised` and stops nothing, so every variant is sent.
 * - DELETE /api/repos, POST /api/repos and PATCH /api/repos change repos.yaml; they are fuzzed whole.
 *   Command fields get harmless commands only (fuzz-values.ts), as the server runs them later.
 * - POST /api/auth/logout and /api/auth/login: on a loopback bind no session or password matters.
 */
describe('fuzz of every route in /openapi.json', () => {
  const failures: Failure[] = [];
  const covered = new Map<string, number>();
  const answers = new Map<string, Map<string, number>>();
  /** Per operation, each status (with its code) answered to a case sent with its own method. */
  const statuses = new Map<string, Set<string>>();
  let order: { c: FuzzCase }[] = [];

  beforeAll(() => {
    const rng = new Rng(seed);
    const b = new CaseBuilder(rng, world.pools);
    const cases = operations.flatMap((op) => casesOf(op, b));
    // Interleaved, so that moves on the same item race the way real clients would.
    order = cases.map((c, i) => ({ c, k: rng.next(), i })).sort((x, y) => x.k - y.k || x.i - y.i);
  });

  // The requests in order, a part per test, each bounded on its own (a bound on a hang): the whole
  // took over five minutes on a loaded machine.
  for (let part = 0; part < PARTS; part++) {
    it(`answers no 5xx and only catalogue 4xx, and stays up: part ${part + 1} of ${PARTS} of the requests`, async () => {
      const from = Math.floor((part * order.length) / PARTS);
      const to = Math.floor(((part + 1) * order.length) / PARTS);
      const seen = failures.length;
      await pool(order.slice(from, to), CONCURRENCY, async ({ c }) => {
        const a = await sendCase(world.port, c);
        covered.set(c.op, (covered.get(c.op) ?? 0) + 1);
        const key = `${c.kind === 'valid' ? 'valid:' : ''}${'error' in a ? 'none' : `${a.status}${/"code":"(\w+)"/.exec(a.text)?.[1] ?? ''}`}`;
        const tally = answers.get(c.op) ?? new Map<string, number>();
        answers.set(c.op, tally.set(key, (tally.get(key) ?? 0) + 1));
        // A case sent with another method is another operation's (or none's).
        if (c.kind !== 'method' && !('error' in a)) {
          const keys = statuses.get(c.op) ?? new Set<string>();
          statuses.set(c.op, keys.add(`${a.status}${/"code":"(\w+)"/.exec(a.text)?.[1] ?? ''}`));
        }
        const why = judge(c, a);
        if (why) failures.push(failure(c, a, why));
      });
      const report = groupFailures(failures.slice(seen));
      const logged = serverErrors(world.jig.home).slice(0, 20);
      expect(report, `${report.join('\n')}\nserver log errors:\n${logged.join('\n')}`).toEqual([]);
      expect(world.jig.proc.exitCode).toBeNull();
    }, 300_000);
  }

  it('sent every operation listed its requests', () => {
    const sent = [...covered.values()].reduce((a, b) => a + b, 0);
    console.info(
      `fuzz: seed ${seed}, ${sent} requests over ${covered.size} operations, ${failures.length} failures`,
    );
    if (process.env.JIG_FUZZ_VERBOSE)
      for (const [op, tally] of answers)
        console.info(
          `${op}: ${[...tally]
            .sort()
            .map(([k, n]) => `${k}×${n}`)
            .join(' ')}`,
        );
    expect(sent).toBe(order.length);
    expect(operations.filter((op) => !covered.has(`${op.method} ${op.path}`))).toEqual([]);
  });

  it('answered, for each operation in the document, only the statuses the document declares for it', () => {
    const undeclared = new Map<string, string[]>();
    for (const [op, keys] of statuses) {
      const ours = declared.get(op);
      if (!ours) continue; // a route the document leaves out
      for (const key of keys) {
        const m = /^(\d{3})(\w*)$/.exec(key);
        // Refused before any route is matched: a path no route has, a request line too long.
        if (!m || NOT_ROUTED.has(m[2]!)) continue;
        if (!ours.has(m[1]!)) undeclared.set(op, [...(undeclared.get(op) ?? []), key]);
      }
    }
    expect(Object.fromEntries(undeclared)).toEqual({});
  });

  it('the WebSocket handshake with bad after_seq values or malformed headers answers 4xx or a clean stream', async () => {
    const values = [
      '',
      '-1',
      'abc',
      '1.5',
      'NaN',
      'Infinity',
      '1e999',
      '99999999999999999999999',
      '9007199254740993',
      '%00',
      '%ff',
      'a'.repeat(5000),
      '0',
      '1',
    ];
    const targets = [
      ...values.map((v) => `/api/ws/events?after_seq=${v}`),
      '/api/ws/events?after_seq=1&after_seq=2',
      '/api/ws/events?after_seq[]=1',
      '/api/ws/events?after_seq[a]=1',
      '/api/ws/events?after_seq',
      '/api/ws/events/..',
      '/api/ws/events%00',
      '/api/ws/events%ff',
    ];
    // Malformed handshakes are refused before any Jig code runs: by `ws` with a plain-text 400, or,
    // without `Connection: Upgrade`, by @fastify/websocket's empty 404. Only the status is checked.
    const malformed: Record<string, string>[] = [
      { 'sec-websocket-version': '8' },
      { 'sec-websocket-version': 'x' },
      { 'sec-websocket-key': '' },
      { 'sec-websocket-key': 'short' },
      { upgrade: 'h2c' },
      { connection: 'close' },
      { 'sec-websocket-extensions': 'permessage-deflate; server_max_window_bits=99' },
      { 'sec-websocket-protocol': '\u00ff'.repeat(100) },
    ];
    const bad: string[] = [];
    const check = async (
      target: string,
      headers: Record<string, string>,
      catalogue: boolean,
    ): Promise<void> => {
      const r = await wsAttempt(world.port, target, headers);
      const where = `${target.slice(0, 80)} ${JSON.stringify(headers).slice(0, 80)}`;
      if ('error' in r) bad.push(`${where}: no answer (${r.error})`);
      else if ('frame' in r) {
        if (!r.frame.includes('"hello"')) bad.push(`${where}: 101 without a hello`);
      } else if (r.status < 400 || r.status >= 500) bad.push(`${where}: ${r.status} ${r.text}`);
      else if (catalogue) {
        const why = judge(
          { op: 'WS', kind: 'ws', method: 'GET', url: target, headers },
          { status: r.status, contentType: 'application/json', text: r.text },
        );
        if (why) bad.push(`${where}: ${why}`);
      }
    };
    for (const t of targets) await check(t, {}, true);
    for (const headers of malformed) await check('/api/ws/events?after_seq=0', headers, false);
    expect(bad).toEqual([]);
  });

  it('is healthy afterwards, logged no error, and every item it lists still reads whole', async () => {
    expect((await http(`${world.jig.url}/api/health`)).status).toBe(200);
    expect(world.jig.proc.exitCode).toBeNull();
    // An error line is a 500 or a failure behind an answer that looked fine (a walk that broke).
    expect(serverErrors(world.jig.home)).toEqual([]);
    const after = hashTree(join(world.jig.home, 'config'));
    const changed = Object.keys({ ...configBefore, ...after }).filter((f) => configBefore[f] !== after[f]);
    expect(changed.filter((f) => !WRITABLE.has(f))).toEqual([]);
    // No temp file of an interrupted write is left next to the config files.
    expect(Object.keys(after).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    for (const path of ['/api/policy', '/api/repos', '/api/templates/chains', '/api/apply'])
      expect((await http(`${world.jig.url}${path}`)).status, path).toBe(200);
    const list = await http(`${world.jig.url}/api/work-items?archived=all&limit=500`);
    expect(list.status).toBe(200);
    const unreadable: string[] = [];
    for (const it of list.json.items) {
      for (const p of [`/api/work-items/${it.id}`, `/api/work-items/${it.id}/events?limit=1`]) {
        const r = await http(`${world.jig.url}${p}`);
        if (r.status !== 200) unreadable.push(`${p}: ${r.status} ${r.text.slice(0, 200)}`);
      }
    }
    expect(unreadable).toEqual([]);
  });
});
