import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { stringify } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { harnessesYaml } from './helpers/agents.js';
import { events, post, until } from './helpers/engine.js';
import { eventually } from './helpers/eventually.js';
import { GATED_CHAIN } from './helpers/gated-chain.js';
import { checks, firstCheck } from './helpers/intake.js';
import { makeRepo } from './helpers/git.js';
import { cleanupAll, http, repoRoot, runJig, startJig, tempHome, type JigProcess } from './helpers/server.js';

afterEach(cleanupAll);

/*
 * Auto-intake from beads (docs/intake.md): a real server, real repositories, and a stand-in `bd`
 * (test/fixtures/bd) on the server's PATH that reads .beads/ready.json and records closes.
 */

const BD_DIR = join(repoRoot, 'test', 'fixtures', 'bd');
const NO_GATE = `
nodes:
  - id: build
    kind: exec
    tasks:
      - id: touch
        kind: subprocess
        run: 'true'
`;
const AGENT = `
nodes:
  - id: build
    kind: exec
    tasks:
      - id: edit
        kind: agent
        harness: claude
        prompt: Change it.
`;

interface World {
  jig: JigProcess;
  home: string;
  repo: string;
  other: string;
}

const bead = (id: string, priority: unknown, extra: Record<string, unknown> = {}) => ({
  id,
  title: `Bead ${id}`,
  description: `What ${id} is about`,
  priority,
  issue_type: 'task',
  ...extra,
});

function setReady(repo: string, beads: unknown[]): void {
  mkdirSync(join(repo, '.beads'), { recursive: true });
  writeFileSync(join(repo, '.beads', 'ready.json'), JSON.stringify(beads));
}

const closedBeads = (repo: string): { id: string; reason: string }[] => {
  const f = join(repo, '.beads', 'closed.jsonl');
  return existsSync(f)
    ? readFileSync(f, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];
};

/** A home with two connected repositories (the second's default chain has no gate) and bd on PATH. */
async function world(
  opts: {
    ready?: unknown[];
    blocked?: unknown[];
    policy?: string;
    enabled?: boolean;
    path?: string;
    home?: string;
  } = {},
): Promise<World> {
  const home = opts.home ?? tempHome();
  const repo = makeRepo({ 'README.md': '# shop\n' });
  const other = makeRepo({ 'README.md': '# tools\n' });
  setReady(repo, opts.ready ?? []);
  if (opts.blocked) writeFileSync(join(repo, '.beads', 'blocked.json'), JSON.stringify(opts.blocked));
  mkdirSync(join(home, 'config', 'chains'), { recursive: true });
  const chains = { gated: GATED_CHAIN, nogate: NO_GATE, agent: AGENT };
  for (const [id, text] of Object.entries(chains))
    writeFileSync(join(home, 'config', 'chains', `${id}.yaml`), text);
  const entry = (path: string, chain: string) => ({
    path,
    test_command: '',
    setup_command: '',
    default_chain: chain,
  });
  writeFileSync(
    join(home, 'config', 'repos.yaml'),
    stringify({ repos: [entry(repo, 'gated'), entry(other, 'nogate')] }),
  );
  writeFileSync(join(home, 'config', 'harnesses.yaml'), harnessesYaml());
  if (opts.policy) writeFileSync(join(home, 'config', 'policy.yaml'), opts.policy);
  writeFileSync(
    join(home, 'config', 'intake.yaml'),
    stringify({ enabled: opts.enabled ?? true, interval_s: 3600, priority_ceiling: 2, repos: [] }),
  );
  const PATH = opts.path ?? `${BD_DIR}${delimiter}${process.env.PATH}`;
  const jig = await startJig({ home, env: { PATH } });
  return { jig, home, repo, other };
}

const poll = (jig: JigProcess) => post(jig, '/api/intake/poll');

describe('auto-intake from beads', () => {
  it('files and starts the ready bead, skips the P0, the epic and a non-integer priority; the next poll knows it; completing closes it', async () => {
    const w = await world({
      ready: [
        bead('shop-1', 2),
        bead('shop-0', 0),
        bead('shop-e', 2, { issue_type: 'epic' }),
        bead('shop-x', 'high'),
      ],
    });
    const first = await firstCheck(w.jig);
    expect(first).toEqual({
      id: expect.any(Number),
      at: expect.any(String),
      ready: 4,
      started: [expect.any(String)],
      skipped: [
        { bead: 'shop-0', reason: 'above_priority_ceiling' },
        { bead: 'shop-e', reason: 'epic' },
        { bead: 'shop-x', reason: 'above_priority_ceiling' },
      ],
    });
    const id = first.started[0];
    const item = await until(w.jig, id, (i) => i.status === 'stopped' && i.stop?.kind === 'gate');
    expect(item).toMatchObject({
      title: 'Bead shop-1',
      description: 'What shop-1 is about\n\nBead shop-1 (P2), filed by auto-intake.',
      source: 'auto_intake',
      auto_gate: false,
      chain: 'gated',
      repo: w.repo,
      issues: [{ tracker: 'beads', id: 'shop-1', priority: 2, how: 'auto_intake', closing: 'open' }],
    });
    const created = (await events(w.jig, id)).find((e) => e.type === 'work_item_created');
    expect(created.by).toBe('jig');
    expect(created.payload.issues).toEqual([{ tracker: 'beads', id: 'shop-1', priority: 2 }]);

    const again = await poll(w.jig);
    expect(again.status, again.text).toBe(200);
    expect(again.json.started).toEqual([]);
    expect(again.json.skipped).toEqual([
      { bead: 'shop-0', reason: 'above_priority_ceiling' },
      { bead: 'shop-1', reason: 'already_item' },
      { bead: 'shop-e', reason: 'epic' },
      { bead: 'shop-x', reason: 'above_priority_ceiling' },
    ]);
    expect((await checks(w.jig)).map((c: any) => c.id)).toEqual([again.json.id, first.id]);

    // The gate approved, the item completes having committed out.txt: the bead is closed.
    expect((await post(w.jig, `/api/work-items/${id}/gates/review/approve`)).status).toBe(200);
    await until(w.jig, id, (i) => i.status === 'completed');
    const closed = await eventually(
      async () => {
        const found = (await events(w.jig, id)).filter((e) => e.type === 'beads_closed');
        return found.length > 0 && found;
      },
      { what: 'a beads_closed event' },
    );
    expect(closed.map((e) => e.payload)).toEqual([{ beads: ['shop-1'] }]);
    expect(closedBeads(w.repo)).toEqual([
      { id: 'shop-1', reason: `Done in Jig work item ${id}: Bead shop-1` },
    ]);
    expect((await http(`${w.jig.url}/api/work-items/${id}`)).json.issues[0].closing).toBe('closed');
  });

  it('skips for max_concurrent and the daily budget, refuses a chain without a gate, and records a poll that could not run', async () => {
    const w = await world({
      policy: 'max_concurrent: 2\nbudget:\n  daily_usd: 0.0001\n',
    });
    // Nothing ready at the start: an empty poll is still a check.
    expect(await firstCheck(w.jig)).toMatchObject({ ready: 0, started: [], skipped: [] });
    setReady(w.repo, [bead('shop-a', 2), bead('shop-b', 3), bead('shop-c', 4)]);
    setReady(w.other, [bead('tools-1', 2)]);
    const one = await poll(w.jig);
    expect(one.status, one.text).toBe(200);
    // Most urgent first: shop-a takes a slot; tools-1 is refused (its repo's chain has no gate) and
    // takes none; shop-b takes the second slot; shop-c finds none.
    expect(one.json).toMatchObject({
      ready: 4,
      started: [expect.any(String), expect.any(String)],
      skipped: [
        { bead: 'tools-1', reason: 'invalid_config' },
        { bead: 'shop-c', reason: 'max_concurrent' },
      ],
    });
    const list = (await http(`${w.jig.url}/api/work-items`)).json;
    expect(list.items.map((i: any) => i.title).sort()).toEqual(['Bead shop-a', 'Bead shop-b']);
    for (const id of one.json.started) await until(w.jig, id, (i) => i.status === 'stopped');

    // Spend today past daily_usd (an agent session of the fake costs 0.0006): nothing is filed.
    const spent = await post(w.jig, '/api/work-items', {
      title: 'Spend',
      repo: w.repo,
      chain: 'agent',
      start: true,
    });
    expect(spent.status, spent.text).toBe(201);
    // Its session told its spend at its end, past daily_usd: the item stops there (issue 40).
    const capped = await until(w.jig, spent.json.id, (i) => i.status === 'stopped');
    expect(capped.stop.kind).toBe('budget');
    expect(capped.stop.reason).toContain('policy.yaml budget.daily_usd (all items since local midnight)');
    const two = await poll(w.jig);
    expect(two.json.skipped).toEqual([
      { bead: 'shop-a', reason: 'already_item' },
      { bead: 'tools-1', reason: 'daily_budget' },
      { bead: 'shop-b', reason: 'already_item' },
      { bead: 'shop-c', reason: 'daily_budget' },
    ]);

    // policy.yaml stops loading: the poll cannot run, and says so with a null bead.
    writeFileSync(join(w.home, 'config', 'policy.yaml'), 'max_concurrent: many\n');
    await http(`${w.jig.url}/api/apply/reload`, { method: 'POST' });
    const three = await poll(w.jig);
    expect(three.json).toMatchObject({
      ready: 0,
      started: [],
      skipped: [{ bead: null, reason: 'invalid_config' }],
    });

    // The checks route's limits.
    for (const bad of ['0', '101', 'x']) {
      const r = await http(`${w.jig.url}/api/intake/checks?limit=${bad}`);
      expect(r.status).toBe(422);
      expect(r.json.code).toBe('validation_failed');
      expect(r.json.detail).toContain('limit');
    }
    expect((await checks(w.jig, 1)).map((c: any) => c.id)).toEqual([three.json.id]);

    // A restart keeps the log.
    const before = await checks(w.jig, 100);
    await w.jig.stop();
    const again = await startJig({ home: w.home, env: { PATH: `${BD_DIR}${delimiter}${process.env.PATH}` } });
    const after = await checks(again, 100);
    expect(after.slice(-before.length)).toEqual(before);
  });

  it('files a bead blocked by another after its blocker, in one poll; one blocked by an unfiled bead waits; the blocker done, it runs', async () => {
    const w = await world({
      ready: [bead('shop-1', 2)],
      blocked: [
        bead('shop-2', 2, { blocked_by: ['shop-1'] }),
        // Blocked by a P0 (above the ceiling, never filed): it waits, said in the check.
        bead('shop-3', 3, { blocked_by: ['shop-0'] }),
      ],
    });
    const first = await firstCheck(w.jig);
    expect(first).toMatchObject({
      ready: 1,
      started: [expect.any(String), expect.any(String)],
      skipped: [{ bead: 'shop-3', reason: 'blocked_by_unfiled' }],
    });
    const [blocker, dependent] = first.started;
    const b = (await http(`${w.jig.url}/api/work-items/${dependent}`)).json;
    expect([b.title, b.status, b.dependencies]).toEqual([
      'Bead shop-2',
      'blocked',
      [{ id: blocker, title: 'Bead shop-1', status: expect.any(String) }],
    ]);
    const created = (await events(w.jig, dependent)).find((e) => e.type === 'work_item_created');
    expect(created.payload.after).toEqual([blocker]);
    // The blocker passes its gate and completes (closing its bead): the dependent starts by itself.
    await until(w.jig, blocker, (i) => i.status === 'stopped' && i.stop?.kind === 'gate');
    expect((await post(w.jig, `/api/work-items/${blocker}/gates/review/approve`)).status).toBe(200);
    await until(w.jig, dependent, (i) => i.status === 'stopped' && i.stop?.kind === 'gate');
    expect((await events(w.jig, dependent)).map((e) => e.type)).toContain('work_item_unblocked');
    // bd now lists shop-2 as ready: it is known.
    await eventually(() => closedBeads(w.repo).length === 1, { what: 'shop-1 closed' });
    const again = await poll(w.jig);
    expect(again.json.skipped).toEqual([
      { bead: 'shop-2', reason: 'already_item' },
      { bead: 'shop-3', reason: 'blocked_by_unfiled' },
    ]);
  });

  it('without bd on PATH a repo is skipped, not an error; while disabled no poll runs and asking for one is a 409', async () => {
    const off = await world({ ready: [bead('shop-1', 2)], enabled: false });
    const r = await poll(off.jig);
    expect(r.status).toBe(409);
    expect(r.json).toEqual({
      detail: 'auto-intake is off: set enabled: true in intake.yaml (or Settings › Auto-intake) first',
      code: 'intake_disabled',
    });
    expect(await checks(off.jig)).toEqual([]);

    // An id that could pass for an option is refused with the whole answer, filing nothing.
    const odd = await world({ ready: [bead('--force', 2)] });
    expect(await firstCheck(odd.jig)).toMatchObject({ ready: 0, started: [], skipped: [] });
    // The log is on stderr, a pipe of its own: it can arrive after the check the API shows.
    await eventually(() => odd.jig.stderr().includes('bd ready --json is not a list of issues: 0.id'), {
      what: 'the refusal in the log',
    });

    const nobd = await world({ ready: [bead('shop-1', 2)], path: '/usr/bin:/bin' });
    expect(await firstCheck(nobd.jig)).toMatchObject({ ready: 0, started: [], skipped: [] });
    await eventually(
      () =>
        (nobd.jig.stdout() + nobd.jig.stderr()).includes(
          'auto-intake: beads ' + nobd.repo + " skipped: bd is not on the server's PATH",
        ),
      { what: 'the skip in the log' },
    );
  });

  it('--implements links beads by hand: closed when the item changed something, left open when it did not', async () => {
    const w = await world({ enabled: false });
    const file = async (chain: string, beads: string[]) => {
      const r = await post(w.jig, '/api/work-items', {
        title: `Implements ${beads.join(' ')}`,
        repo: w.repo,
        chain,
        implements: beads,
        start: true,
      });
      expect(r.status, r.text).toBe(201);
      expect(r.json.issues.map((i: any) => [i.id, i.how])).toEqual(beads.map((b) => [b, 'implements']));
      return r.json.id;
    };
    const changed = await file('gated', ['shop-7', 'shop-8']);
    const idle = await file('nogate', ['shop-9']);
    await until(w.jig, changed, (i) => i.status === 'stopped');
    expect((await post(w.jig, `/api/work-items/${changed}/gates/review/approve`)).status).toBe(200);
    await until(w.jig, changed, (i) => i.status === 'completed');
    await until(w.jig, idle, (i) => i.status === 'completed');
    const settled = (id: string) =>
      eventually(
        async () => {
          const ev = (await events(w.jig, id)).filter((e) => e.type.startsWith('beads_'));
          return ev.length > 0 && ev.map((e) => [e.type, e.payload]);
        },
        { what: `a beads_ event of ${id}` },
      );
    expect(await settled(changed)).toEqual([['beads_closed', { beads: ['shop-7', 'shop-8'] }]]);
    expect(await settled(idle)).toEqual([
      ['beads_left_open', { beads: ['shop-9'], reason: 'nothing changed on its branch' }],
    ]);
    expect(closedBeads(w.repo).map((b) => b.id)).toEqual(['shop-7', 'shop-8']);
    const shown = await runJig(['view', 'show', idle], { JIG_HOME: w.home });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('issues   beads shop-9 (left open)\n');

    // Completed by hand with --close-beads, its bead closes though its branch changed nothing.
    const byHand = await post(w.jig, '/api/work-items', {
      title: 'Done by hand',
      repo: w.repo,
      chain: 'gated',
      implements: ['shop-10'],
    });
    expect(byHand.status, byHand.text).toBe(201);
    const done = await runJig(
      ['item', 'complete', byHand.json.id, '--close-beads', '--reason', 'already there'],
      {
        JIG_HOME: w.home,
      },
    );
    expect([done.code, done.stdout]).toEqual([0, `completed ${byHand.json.id}\n`]);
    expect(await settled(byHand.json.id)).toEqual([['beads_closed', { beads: ['shop-10'] }]]);
    const ended = (await events(w.jig, byHand.json.id)).find(
      (e) => e.type === 'work_item_manually_completed',
    );
    expect(ended.payload).toEqual({ from: 'paused', reason: 'already there', close_beads: true });
    expect(closedBeads(w.repo).map((b) => b.id)).toEqual(['shop-7', 'shop-8', 'shop-10']);
  });
});
