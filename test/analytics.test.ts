import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harnessesYaml } from './helpers/agents.js';
import { post, until } from './helpers/engine.js';
import { makeRepo } from './helpers/git.js';
import { cleanupAll, http, startJig, tempHome, type JigProcess } from './helpers/server.js';

/*
 * Analytics on a real server: two items of a chain with a Claude agent (cost reported), a Codex
 * agent (cost estimated from the price table) and a command; the figures add up to the sessions'
 * own spend, grouped by node, harness, chain and day, with each node's runs.
 */

const CHAIN = `
nodes:
  - id: write
    kind: exec
    tasks:
      - id: author
        kind: agent
        harness: claude
        prompt: Write it.
  - id: check
    kind: exec
    tasks:
      - id: look
        kind: agent
        harness: codex
        model: gpt-5-codex
        prompt: Check it.
  - id: run
    kind: exec
    tasks:
      - id: cmd
        kind: subprocess
        run: 'true'
`;

let jig: JigProcess;
const ids: string[] = [];
const sessions: any[] = [];

beforeAll(async () => {
  const home = tempHome();
  const repo = makeRepo({ 'README.md': '# a\n' });
  mkdirSync(join(home, 'config', 'chains'), { recursive: true });
  writeFileSync(join(home, 'config', 'chains', 'three.yaml'), CHAIN);
  writeFileSync(
    join(home, 'config', 'repos.yaml'),
    stringify({ repos: [{ path: repo, test_command: '', setup_command: '', default_chain: 'three' }] }),
  );
  writeFileSync(join(home, 'config', 'harnesses.yaml'), harnessesYaml());
  jig = await startJig({ home });
  for (const title of ['One', 'Two']) {
    const r = await post(jig, '/api/work-items', { title, repo, start: true });
    expect(r.status, r.text).toBe(201);
    ids.push(r.json.id);
  }
  for (const id of ids) {
    await until(jig, id, (i) => i.status === 'completed');
    sessions.push(...(await http(`${jig.url}/api/work-items/${id}/sessions`)).json.sessions);
  }
});
afterAll(cleanupAll);

const analytics = async (q: string) => (await http(`${jig.url}/api/analytics?${q}`)).json;
const sum = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) * 1e6) / 1e6;

describe('analytics', () => {
  it('adds up to the sessions’ own spend, reported and estimated apart, by node', async () => {
    expect(sessions).toHaveLength(6);
    const a = await analytics('group_by=node');
    const reported = sessions.filter((s) => s.cost_source === 'reported').map((s) => s.cost_usd);
    const estimated = sessions.filter((s) => s.cost_source === 'estimated').map((s) => s.cost_usd);
    expect(reported).toHaveLength(2);
    expect(estimated).toHaveLength(2);
    expect(a.totals).toMatchObject({
      sessions: 6,
      agent_sessions: 4,
      items: 2,
      cost_reported_usd: sum(reported),
      cost_estimated_usd: sum(estimated),
      unpriced_sessions: 0,
    });
    expect(a.totals.cost_usd).toBeCloseTo(sum([...reported, ...estimated]), 6);
    const items = await Promise.all(
      ids.map(async (id) => (await http(`${jig.url}/api/work-items/${id}`)).json),
    );
    expect(a.totals.cost_usd).toBeCloseTo(sum(items.map((i) => i.spent_usd)), 6);
    expect(a.totals.tokens.input).toBe(sessions.reduce((n, s) => n + (s.tokens?.input ?? 0), 0));
    expect(a.rows.map((r: any) => r.key).sort()).toEqual(['check', 'run', 'write']);
    expect(a.rows.find((r: any) => r.key === 'run')).toMatchObject({
      sessions: 2,
      agent_sessions: 0,
      cost_usd: 0,
    });
    expect(sum(a.rows.map((r: any) => r.cost_usd))).toBeCloseTo(a.totals.cost_usd, 6);
    expect(a.nodes).toEqual(
      ['check', 'run', 'write'].map((node) => ({
        node,
        runs: 2,
        completed: 2,
        stopped: 0,
        success_rate: 1,
        stop_rate: 0,
      })),
    );
  });

  it('groups by harness, chain and day, and refuses a range that ends before it starts', async () => {
    const h = await analytics('group_by=harness');
    expect(h.rows.map((r: any) => [r.key, r.sessions])).toEqual(
      expect.arrayContaining([
        ['claude', 2],
        ['codex', 2],
        ['(none)', 2],
      ]),
    );
    const c = await analytics('group_by=chain');
    expect(c.rows.map((r: any) => r.key)).toEqual(['three']);
    const today = new Date().toISOString().slice(0, 10);
    const d = await analytics(`group_by=day&from=${today}&to=${today}`);
    expect(d.rows.map((r: any) => [r.key, r.sessions])).toEqual([[today, 6]]);
    expect(d.from).toBe(`${today}T00:00:00.000Z`);
    const empty = await analytics('from=2020-01-01&to=2020-01-31');
    expect(empty).toMatchObject({ rows: [], nodes: [], totals: { sessions: 0, cost_usd: 0 } });
    const bad = await http(`${jig.url}/api/analytics?from=2026-02-01&to=2026-01-01`);
    expect(bad.status).toBe(422);
    expect(bad.json).toMatchObject({ code: 'validation_failed', detail: 'query.from: must be before to' });
    const far = await http(`${jig.url}/api/analytics?to=-271821-04-20T00:00:00Z`);
    expect(far.status).toBe(422);
    expect(far.json.detail).toBe('query.from: out of range');
    const local = await http(`${jig.url}/api/analytics?from=2026-11-01T10:00:00`);
    expect(local.status).toBe(422);
    const junk = await http(`${jig.url}/api/analytics?from=yesterday`);
    expect(junk.status).toBe(422);
    expect(junk.json.detail).toContain('from');
  });
});
