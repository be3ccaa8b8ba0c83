import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentSetup } from './helpers/agents.js';
import { shippingChain } from './helpers/chain-tests.js';
import { eventually } from './helpers/eventually.js';
import { cleanupAll, http, runJig, tempHome } from './helpers/server.js';

afterAll(cleanupAll);

/*
 * Issue 51: `POST /api/templates/chains/{id}/test` and `jig chain test` — the run, its refusals,
 * one run at a time, the exit code a CI job reads.
 */

const shipping = shippingChain;

// Holds until the test lets it go (a file appears), at most a minute: the first run is surely
// still running when the second is sent.
const slow = (release: string) => `
nodes:
  - id: wait
    kind: exec
    tasks:
      - id: hold
        kind: subprocess
        run: 'for i in $(seq 600); do test -f ${release} && exit 0; sleep 0.1; done; exit 1'
`;

const script = {
  tasks: { 'build.main.code': { files: { 'feature.txt': 'v1\n' }, cost_usd: 0.5 } },
  gates: { ship: 'approve' },
  expect: { completes: true, spent_below: 1 },
};

describe('testing a chain through the API and the CLI', () => {
  it('answers the report; refuses an unknown chain, a bad script field, a repository not connected; one run at a time', async () => {
    const release = join(tempHome('jig-release-'), 'go');
    const { jig, repo, home } = await agentSetup({ shipping, slow: slow(release) }, { home: tempHome() });
    const test = (id: string, body: unknown) =>
      http(`${jig.url}/api/templates/chains/${id}/test`, { method: 'POST', body });

    const ok = await test('shipping', script);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json).toEqual({
      chain: 'shipping',
      ok: true,
      status: 'completed',
      stop: null,
      ended: 'completed',
      path: [
        { type: 'node_started', node: 'build', detail: 'started' },
        { type: 'node_completed', node: 'build', detail: 'completed' },
        { type: 'gate_requested', node: 'ship', detail: 'gate waits' },
        { type: 'gate_approved', node: 'ship', detail: 'gate approved' },
        { type: 'work_item_completed', node: null, detail: 'item completed' },
      ],
      sessions: [
        { task: 'build.main.code', attempt: 1, status: 'done', cost_usd: 0.5, tokens: 0, note: null },
      ],
      spent_usd: 0.5,
      spent_tokens: 0,
      expectations: [
        { expect: 'completes: true', ok: true, actual: 'completed' },
        { expect: 'spent_below: 1', ok: true, actual: '$0.5' },
      ],
      divergences: [],
    });

    const unknown = await test('nope', script);
    expect({ status: unknown.status, code: unknown.json.code }).toEqual({ status: 404, code: 'not_found' });
    const bad = await test('shipping', { tasks: { 'build.main.code': { status: 'finished' } } });
    expect(bad.status).toBe(422);
    expect(bad.json.detail).toContain('tasks.build.main.code');
    const elsewhere = await test('shipping', { ...script, repo: '/nowhere' });
    expect({ status: elsewhere.status, detail: elsewhere.json.detail }).toEqual({
      status: 422,
      detail: `repo: /nowhere is not a connected repository (${repo})`,
    });

    // While one runs (its test home is there), a second is refused.
    const first = test('slow', { expect: { completes: true } });
    await eventually(() => readdirSync(join(home, 'run')).some((n) => n.startsWith('jig-chain-test-')), {
      what: 'the first chain test to start',
    });
    const second = await test('shipping', script);
    writeFileSync(release, '');
    expect({ status: second.status, code: second.json.code }).toEqual({
      status: 409,
      code: 'chain_test_running',
    });
    const done = await first;
    expect({ status: done.status, ok: done.json.ok, ended: done.json.ended }).toEqual({
      status: 200,
      ok: true,
      ended: 'completed',
    });
    expect(readdirSync(join(home, 'run')).filter((n) => n.startsWith('jig-chain-test-'))).toEqual([]);
  });

  it('jig chain test prints the report and exits 0, or 1 when an expectation fails', async () => {
    const { home } = await agentSetup({ shipping }, { home: tempHome() });
    const file = join(home, 'ship-test.yaml');
    writeFileSync(
      file,
      [
        'tasks:',
        '  build.main.code: {files: {feature.txt: "v1\\n"}, cost_usd: 0.5}',
        'gates:',
        '  ship: approve',
        'expect:',
        '  completes: true',
        '  spent_below: 0.25',
        '',
      ].join('\n'),
    );
    const r = await runJig(['chain', 'test', 'shipping', '--script', file], { JIG_HOME: home });
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 1, stderr: '' });
    expect(r.stdout).toContain('shipping: FAILED — ended: completed');
    expect(r.stdout).toContain('ok   completes: true (was completed)');
    expect(r.stdout).toContain('FAIL spent_below: 0.25 (was $0.5)');
    writeFileSync(file, 'tasks:\n  build.main.code: {}\ngates: {ship: approve}\n');
    const fine = await runJig(['chain', 'test', 'shipping', '--script', file, '--json'], { JIG_HOME: home });
    expect(fine.code).toBe(0);
    expect(JSON.parse(fine.stdout)).toMatchObject({ ok: true, status: 'completed' });
    expect(existsSync(join(home, 'ship-test.yaml'))).toBe(true);
  });

  it('jig admin templates test runs every script beside its chain and exits 1 when one fails', async () => {
    const { home } = await agentSetup({ shipping }, { home: tempHome() });
    const none = await runJig(['admin', 'templates', 'test'], { JIG_HOME: home });
    expect(none).toEqual({
      code: 0,
      stdout: 'no chain tests: put scripts in chains/<id>.tests/*.yaml (docs/chain-tests.md)\n',
      stderr: '',
    });
    const dir = join(home, 'config', 'chains', 'shipping.tests');
    mkdirSync(dir);
    writeFileSync(
      join(dir, 'a-approve.yaml'),
      'gates: {ship: approve}\ndefault: {}\nexpect: {completes: true}\n',
    );
    writeFileSync(
      join(dir, 'b-stops.yaml'),
      'gates: {ship: approve}\ndefault: {}\nexpect: {completes: false}\n',
    );
    writeFileSync(join(dir, 'notes.txt'), 'not a script');
    const r = await runJig(['admin', 'templates', 'test', '--json'], { JIG_HOME: home });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.tests.map((t: any) => [t.chain, t.file.slice(dir.length + 1), t.ok, t.report.ended])).toEqual([
      ['shipping', 'a-approve.yaml', true, 'completed'],
      ['shipping', 'b-stops.yaml', false, 'completed'],
    ]);
    expect(out.failed).toBe(1);
  });

  it('tests the open draft of a chain when asked, the published chain otherwise; refuses a draft that does not check', async () => {
    const { jig } = await agentSetup({ shipping }, { home: tempHome() });
    const test = (body: unknown) =>
      http(`${jig.url}/api/templates/chains/shipping/test`, { method: 'POST', body });
    const put = (text: string) =>
      http(`${jig.url}/api/drafts/chains/shipping/files/${encodeURIComponent('chains/shipping.yaml')}`, {
        method: 'PUT',
        body: { text },
      });
    const body = { default: {}, gates: { ship: 'approve', release: 'approve' }, draft: true };
    const none = await test(body);
    expect({ status: none.status, code: none.json.code, detail: none.json.detail }).toEqual({
      status: 404,
      code: 'not_found',
      detail: 'a draft of chain shipping not found',
    });
    expect((await put(shipping.replace('id: ship\n', 'id: release\n'))).status).toBe(200);
    const drafted = await test(body);
    expect(drafted.status, drafted.text).toBe(200);
    expect(drafted.json.path.map((p: { node: string | null }) => p.node)).toEqual([
      'build',
      'build',
      'release',
      'release',
      null,
    ]);
    const published = await test({ ...body, draft: false });
    expect(published.json.path.map((p: { node: string | null }) => p.node)).toEqual([
      'build',
      'build',
      'ship',
      'ship',
      null,
    ]);
    expect((await put(`${shipping}\n  - id: x\n    kind: nonsense\n`)).status).toBe(200);
    const broken = await test(body);
    expect({ status: broken.status, code: broken.json.code }).toEqual({
      status: 422,
      code: 'validation_failed',
    });
    expect(broken.json.detail).toMatch(/^draft: chains\/shipping\.yaml/);
  });
});
