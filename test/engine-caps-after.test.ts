import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { agentSetup, sessions } from './helpers/agents.js';
import { events, post, until } from './helpers/engine.js';
import { cleanupAll, http } from './helpers/server.js';
import { cleanupButShared, shareServerPerFile } from './helpers/shared-home.js';

// The tests need nothing of a server but their chains, policy and repository: they share one.
shareServerPerFile();

/*
 * Issue 40, point 3: a cap holds after the fact. A CLI that reports its spend only at the end of
 * its stream (the fake Claude finishes well inside one poll of the live watch) still stops the item
 * at that node when the spend is past the cap, and the item's other sessions in that scope end
 * with it. The reasons name the real route and print amounts that are true.
 */

// Each test's own servers go after it; the shared one after the file.
afterEach(cleanupButShared);
afterAll(cleanupAll);

const ended = (i: any) => i.status !== 'running' && i.status !== 'queued';

const CHAIN = `
nodes:
  - id: build
    kind: exec
    tasks:
      - id: implement
        kind: agent
        harness: claude
        prompt: Add the feature.
  - id: review
    kind: gate
    message: Look at it
`;

describe('caps after the fact', () => {
  it('an item cap of $0.0001 with a session reporting $0.0006 at its end stops the item at that node', async () => {
    // The fake's default usage (100 in, 20 out at its own price) is $0.0006, told in its last event.
    const { jig, repo } = await agentSetup({ capped: CHAIN }, { env: { FAKE_AGENT_MODE: 'done' } });
    const filed = await http(`${jig.url}/api/work-items`, {
      method: 'POST',
      body: { title: 'Capped', repo, chain: 'capped', start: true, budget_usd: 0.0001 },
    });
    expect(filed.status, filed.text).toBe(201);
    const id = filed.json.id;
    const stopped = await until(jig, id, ended, 600);
    const reason =
      `the item's dollar budget (raise it with \`jig item raise-budget ${id} --usd N\` or ` +
      `POST /api/work-items/${id}/budget/raise): 0.0006 USD used of 0.0001 USD`;
    expect([stopped.status, stopped.current_node, stopped.stop.kind, stopped.spent_usd]).toEqual([
      'stopped',
      'build',
      'budget',
      0.0006,
    ]);
    expect(stopped.stop.reason).toContain(reason);
    const [s] = await sessions(jig, id);
    expect([s.status, s.note]).toEqual([
      'budget_exceeded',
      `${reason} (reported at the session's end; it ended done)`,
    ]);
    const types = (await events(jig, id)).map((e) => e.type);
    expect(types).not.toContain('gate_requested');
    expect(types).not.toContain('node_completed');

    // The escalation refused for the spend names the same route and the true amounts.
    const esc = await post(jig, `/api/work-items/${id}/escalate`, { message: 'help' });
    expect([esc.status, esc.json.code]).toEqual([409, 'escalation_spend_cap']);
    expect(esc.json.detail).toContain(
      `POST /api/work-items/${id}/budget/raise): 0.0006 USD used of 0.0001 USD`,
    );

    // Raised above the spend, the node runs again (and, at $0.0012, stays under the new cap).
    const raised = await post(jig, `/api/work-items/${id}/budget/raise`, { cap_usd: 1 });
    expect([raised.status, raised.json.status]).toEqual([200, 'running']);
    const atGate = await until(jig, id, ended, 600);
    expect([atGate.status, atGate.stop?.kind, atGate.current_node]).toEqual(['stopped', 'gate', 'review']);
  });

  it("a node cap crossed by one task ends the node's other running sessions with it", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jig-caps-'));
    const script = join(dir, 'script.json');
    writeFileSync(
      script,
      JSON.stringify({
        rules: [
          { match: 'the slow part', mode: 'sleep' },
          { match: 'the quick part', mode: 'done', tokens: '100,20' },
        ],
      }),
    );
    const chain = `
nodes:
  - id: build
    kind: exec
    policy:
      budget_usd: 0.0001
    tasks:
      - id: slow
        kind: agent
        harness: claude
        prompt: Do the slow part.
      - id: quick
        kind: agent
        harness: claude
        prompt: Do the quick part.
  - id: review
    kind: gate
`;
    const { jig, repo } = await agentSetup({ pair: chain }, { env: { FAKE_AGENT_SCRIPT: script } });
    const filed = await http(`${jig.url}/api/work-items`, {
      method: 'POST',
      body: { title: 'Pair', repo, chain: 'pair', start: true },
    });
    expect(filed.status, filed.text).toBe(201);
    const id = filed.json.id;
    const stopped = await until(jig, id, ended, 600);
    expect([stopped.status, stopped.stop.kind]).toEqual(['stopped', 'budget']);
    const ss = await sessions(jig, id);
    const byTask = Object.fromEntries(ss.map((s: any) => [s.task_path, [s.status, s.note]]));
    // The figure is the spend known when the cap was crossed: as much of quick's 0.0006 USD and
    // of slow's (its one message, 100 tokens in and 1 out: 0.000315 USD) as had been read by
    // then, past the cap. The two processes' order, and how their lines fall into reads, decide
    // how much; either way one reason ends both sessions and the item. Slow may even be ended
    // before it wrote its message (a slow start under load): then it spent nothing.
    const reason = String(byTask['build.main.slow']?.[1]);
    const known = /^budget_usd of node build: (0\.\d+) USD used of 0\.0001 USD$/.exec(reason);
    expect(known, reason).not.toBeNull();
    const cost = Object.fromEntries(ss.map((s: any) => [s.task_path, s.cost_usd as number]));
    expect(cost).toEqual({ 'build.main.quick': 0.0006, 'build.main.slow': cost['build.main.slow'] });
    expect([0, 0.000315]).toContain(cost['build.main.slow']);
    expect(Number(known![1])).toBeGreaterThan(0.0001);
    expect(Number(known![1])).toBeLessThanOrEqual(0.000915 + 1e-12);
    expect(stopped.stop.reason).toContain(reason);
    // Quick's usage is held to the cap at its end, unless slow crossed it first and ended both.
    const quickNote = [reason, `${reason} (reported at the session's end; it ended done)`];
    expect(quickNote).toContain(byTask['build.main.quick']?.[1]);
    expect(byTask).toEqual({
      'build.main.quick': ['budget_exceeded', byTask['build.main.quick']?.[1]],
      // Asleep for ten minutes unless ended: the cap ended it at once.
      'build.main.slow': ['budget_exceeded', reason],
    });
    expect((await events(jig, id)).map((e) => e.type)).not.toContain('gate_requested');
  });

  it('in a capped scope a CLI that tells its usage only at its end runs alone: the next launch sees its spend', async () => {
    const chain = `
nodes:
  - id: build
    kind: exec
    policy:
      token_budget: 100
    tasks:
      - id: one
        kind: agent
        harness: gemini
        prompt: Do part one.
      - id: two
        kind: agent
        harness: gemini
        prompt: Do part two.
  - id: review
    kind: gate
`;
    // Gemini's stream tells its tokens in its last event only (usage_reported: at_end).
    const { jig, repo } = await agentSetup(
      { pair: chain },
      {
        env: {
          FAKE_AGENT_MODE: 'slow',
          FAKE_AGENT_STEPS: '3',
          FAKE_AGENT_DELAY_MS: '200',
          FAKE_AGENT_TOKENS: '100,20',
        },
      },
    );
    const providers = (await http(`${jig.url}/api/harnesses/providers`)).json.providers;
    expect(Object.fromEntries(providers.map((p: any) => [p.id, p.usage_reported]))).toMatchObject({
      claude: 'live',
      gemini: 'at_end',
      codex: 'at_end',
      opencode: 'live',
    });
    const filed = await http(`${jig.url}/api/work-items`, {
      method: 'POST',
      body: { title: 'Pair', repo, chain: 'pair', start: true },
    });
    expect(filed.status, filed.text).toBe(201);
    const id = filed.json.id;
    const stopped = await until(jig, id, ended, 600);
    expect([stopped.status, stopped.stop.kind, stopped.stop.reason]).toEqual([
      'stopped',
      'budget',
      'token_budget of node build: 120 tokens used of 100 tokens',
    ]);
    // One session ran; the other launch waited for it, then saw the cap crossed and never started.
    const ss = await sessions(jig, id);
    expect(ss.map((s: any) => s.status)).toEqual(['budget_exceeded']);
    expect(stopped.spent_tokens).toBe(120);
  });
});
