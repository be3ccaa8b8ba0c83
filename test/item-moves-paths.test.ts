import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentSetup, jsonLines, sessions } from './helpers/agents.js';
import { events, fileItem, post, until } from './helpers/engine.js';
import { eventually } from './helpers/eventually.js';
import { cleanupAll, http } from './helpers/server.js';
import { shareServerPerFile } from './helpers/shared-home.js';

/*
 * A person's moves that name a place in the chain or a session (issue 47): a steer per task, a
 * retry that goes on in the session it stopped in (or restarts), a skip of a node to come or of a
 * step or task of this node, escalation threads, and a node's extra prompt and escalation switches.
 */

shareServerPerFile();
afterAll(cleanupAll);

const ended = (i: any) => i.status !== 'running' && i.status !== 'queued';

function scratch(
  rules: unknown[],
  fallback: unknown = { mode: 'fail' },
): { script: string; prompts: string } {
  const dir = mkdtempSync(join(tmpdir(), 'jig-paths-'));
  const script = join(dir, 'script.json');
  writeFileSync(script, JSON.stringify({ rules, default: fallback }));
  return { script, prompts: join(dir, 'prompts.jsonl') };
}

const agent = (id: string, prompt: string) => `
          - id: ${id}
            kind: agent
            harness: claude
            prompt: ${prompt}`;

const TWO_STEPS = `
nodes:
  - id: build
    kind: exec
    steps:
      - id: one
        tasks:${agent('a', 'Write part A.')}
      - id: two
        tasks:${agent('b', 'Write part B.')}
`;

const ONE = `
nodes:
  - id: build
    kind: exec
    tasks:
      - id: work
        kind: agent
        harness: claude
        prompt: Do the thing.
`;

describe('resume with a steer per task', () => {
  it('delivers each steer to the next launch of its task only, and refuses a path the chain lacks', async () => {
    const f = scratch([], { mode: 'done' });
    const { jig, repo } = await agentSetup(
      { two: TWO_STEPS },
      { env: { FAKE_AGENT_SCRIPT: f.script, FAKE_AGENT_PROMPT_LOG: f.prompts } },
    );
    const item = await fileItem(jig, repo, 'two', false);
    const unknown = await post(jig, `/api/work-items/${item.id}/resume`, {
      steers: { 'build.three.c': 'x' },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.json).toMatchObject({
      code: 'validation_failed',
      detail:
        'body.steers.build.three.c: names no agent task of chain two (its agent tasks: build.one.a, build.two.b)',
    });
    const shape = await post(jig, `/api/work-items/${item.id}/resume`, { steers: { build: 'x' } });
    expect(shape.status).toBe(422);
    expect(shape.text).toContain('is not a task path like node.step.task');
    expect((await http(`${jig.url}/api/work-items/${item.id}`)).json.status).toBe('paused');

    const r = await post(jig, `/api/work-items/${item.id}/resume`, {
      note: 'General note.',
      steers: { 'build.two.b': 'Use tabs in B.' },
    });
    expect(r.status, r.text).toBe(200);
    expect((await until(jig, item.id, ended)).status).toBe('completed');
    const [a, b] = jsonLines(f.prompts);
    expect(a.prompt).toContain('Write part A.');
    expect(a.prompt).toContain('General note.');
    expect(a.prompt).not.toContain('Use tabs in B.');
    expect(b.prompt).toContain('Write part B.');
    expect(b.prompt).toContain('Use tabs in B.');
    expect(b.prompt).not.toContain('General note.');
    const started = (await events(jig, item.id)).find((e) => e.type === 'work_item_started');
    expect(started.payload).toEqual({
      status: 'running',
      note: 'General note.',
      steers: { 'build.two.b': 'Use tabs in B.' },
    });
  });
});

describe('retry and the session it stopped in', () => {
  it('a retry goes on in the failed session; restart starts a fresh one', async () => {
    const f = scratch([
      { match: 'Do the thing', mode: 'noop', times: 2 },
      { match: 'asked Jig to try again', mode: 'done' },
    ]);
    const { jig, repo } = await agentSetup({ one: ONE }, { env: { FAKE_AGENT_SCRIPT: f.script } });
    const item = await fileItem(jig, repo, 'one');
    expect((await until(jig, item.id, ended)).stop.kind).toBe('failed');

    const fresh = await post(jig, `/api/work-items/${item.id}/retry`, { restart: true });
    expect(fresh.status, fresh.text).toBe(200);
    expect((await until(jig, item.id, ended)).stop.kind).toBe('failed');
    let ss = await sessions(jig, item.id);
    expect(ss).toHaveLength(2);
    expect(ss[1].argv).not.toContain('--resume');

    const goOn = await post(jig, `/api/work-items/${item.id}/retry`, {});
    expect(goOn.status, goOn.text).toBe(200);
    expect((await until(jig, item.id, ended)).status).toBe('completed');
    ss = await sessions(jig, item.id);
    expect(ss).toHaveLength(3);
    expect(ss[2].argv).toEqual(expect.arrayContaining(['--resume', ss[1].cli_session_id]));
    const retried = (await events(jig, item.id)).filter((e) => e.type === 'work_item_retried');
    expect(retried.map((e) => e.payload)).toEqual([
      { node: 'build', from: 'build', step: 'build.main', task: null, restart: true },
      { node: 'build', from: 'build', step: 'build.main', task: null, resumes: ss[1].id },
    ]);
  });
});

const SKIPPY = `
nodes:
  - id: prep
    kind: exec
    tasks:
      - id: p
        kind: subprocess
        run: 'true'
  - id: build
    kind: exec
    steps:
      - id: one
        tasks:
          - id: x
            kind: subprocess
            run: 'true'
          - id: y
            kind: subprocess
            argv: [test, -f, go]
      - id: two
        tasks:
          - id: z
            kind: subprocess
            argv: [test, -f, go]
  - id: after
    kind: exec
    tasks:
      - id: q
        kind: subprocess
        run: 'true'
`;

describe('skip with a path', () => {
  it('passes a node to come, a task and a step of the current node; refuses what is passed or unknown', async () => {
    const { jig, repo } = await agentSetup({ skippy: SKIPPY });
    const item = await fileItem(jig, repo, 'skippy', false);
    const skip = (path: string) =>
      post(jig, `/api/work-items/${item.id}/skip`, { path, note: `pass ${path}` });

    const early = await skip('build.one');
    expect(early.status).toBe(422);
    expect(early.json.detail).toBe(
      'body.path: build has not started: pass the whole node, or a step of the node the item is at',
    );
    const nowhere = await skip('nope');
    expect(nowhere.status).toBe(422);
    expect(nowhere.json.detail).toBe(
      "body.path: no node nope in the item's chain (its nodes: prep, build, after)",
    );
    const ahead = await skip('after');
    expect(ahead.status, ahead.text).toBe(200);
    expect(ahead.json).toMatchObject({ status: 'paused', skip_nodes: ['after'] });

    expect((await post(jig, `/api/work-items/${item.id}/resume`, {})).status).toBe(200);
    expect((await until(jig, item.id, ended)).stop.reason).toMatch(/^build\.one\.y ended failed/);
    expect((await skip('prep')).json.detail).toBe('body.path: the item has already passed prep');

    // The failing task passed: the node goes on from that step, and stops at the next failure.
    expect((await skip('build.one.y')).status).toBe(200);
    expect((await until(jig, item.id, ended)).stop.reason).toMatch(/^build\.two\.z ended failed/);
    // The whole failing step passed: the node ends, and `after` is passed as marked.
    expect((await skip('build.two')).status).toBe(200);
    expect((await until(jig, item.id, ended)).status).toBe('completed');

    const ran = (await sessions(jig, item.id)).map((s) => s.task_path);
    // x and y are one step's tasks, started together: their order is the launcher's, not the walk's.
    expect([ran[0], [...ran.slice(1, 3)].sort(), ...ran.slice(3)]).toEqual([
      'prep.main.p',
      ['build.one.x', 'build.one.y'],
      'build.one.x',
      'build.two.z',
    ]);
    const evs = await events(jig, item.id);
    expect(evs.find((e) => e.type === 'skip_nodes_changed').payload).toEqual({
      from: [],
      to: ['after'],
      note: 'pass after',
    });
    expect(evs.filter((e) => e.type === 'node_skipped').map((e) => e.payload)).toEqual([
      { node: 'build', path: 'build.one.y', note: 'pass build.one.y' },
      { node: 'build', path: 'build.two', note: 'pass build.two' },
      { node: 'after', note: 'filed with skip_nodes' },
    ]);
  });
});

describe('escalation threads', () => {
  it('a second turn goes on in the first one’s CLI session; new_thread starts another', async () => {
    const f = scratch([
      { match: 'Do the thing', mode: 'noop' },
      { match: 'What you are asked', mode: 'done', concerns: 'Looked.' },
    ]);
    const { jig, repo } = await agentSetup({ one: ONE }, { env: { FAKE_AGENT_SCRIPT: f.script } });
    const item = await fileItem(jig, repo, 'one');
    await until(jig, item.id, ended);
    const turn = async (message: string, newThread = false): Promise<any> => {
      const r = await post(jig, `/api/work-items/${item.id}/escalate`, {
        message,
        ...(newThread ? { new_thread: true } : {}),
      });
      expect(r.status, r.text).toBe(202);
      await eventually(
        async () => {
          const done = (await events(jig, item.id)).filter((e) => e.type === 'escalation_finished');
          expect(done.map((e) => e.payload.session)).toContain(r.json.session);
          return true;
        },
        { what: `escalation turn ${r.json.session} finished` },
      );
      return r.json;
    };
    const first = await turn('Why did it fail?');
    expect(first.continues).toBeNull();
    const second = await turn('And now?');
    expect(second.continues).toBe(first.session);
    const third = await turn('Start over.', true);
    expect(third.continues).toBeNull();

    const byId = new Map((await sessions(jig, item.id)).map((s) => [s.id, s]));
    expect(byId.get(first.session).argv).not.toContain('--resume');
    expect(byId.get(second.session).argv).toEqual(
      expect.arrayContaining(['--resume', byId.get(first.session).cli_session_id]),
    );
    expect(byId.get(third.session).argv).not.toContain('--resume');
    const asked = (await events(jig, item.id)).filter((e) => e.type === 'escalation_message');
    expect(asked.map((e) => e.payload.continues)).toEqual([undefined, first.session, undefined]);
  });
});

const STUCK = `
nodes:
  - id: verify
    kind: exec
    tasks:
      - id: test
        kind: subprocess
        run: test -f never-there.txt
    fix_loop:
      tasks:
        - id: repair
          kind: subprocess
          run: 'true'
      judge:
        kind: subprocess
        run: |
          printf '%s' '{"status":"done","verdict":"stop_needs_human","concerns":"needs a person"}' > "$JIG_RESULT_PATH"
    escalation:
      id: helper
      kind: subprocess
      run: 'true'
`;

describe("a node's own settings", () => {
  it('extra_prompt reaches the prompt of the node’s agent tasks', async () => {
    const f = scratch([], { mode: 'done' });
    const { jig, repo } = await agentSetup(
      { one: ONE },
      { env: { FAKE_AGENT_SCRIPT: f.script, FAKE_AGENT_PROMPT_LOG: f.prompts } },
    );
    const item = await fileItem(jig, repo, 'one', false);
    const bad = await http(`${jig.url}/api/work-items/${item.id}`, {
      method: 'PATCH',
      body: { node_overrides: { build: { auto_escalate: 'no' } } },
    });
    expect(bad.status).toBe(422);
    expect(bad.json.detail).toBe(
      'body.node_overrides.build.auto_escalate: Invalid input: expected boolean, received string',
    );
    const set = await http(`${jig.url}/api/work-items/${item.id}`, {
      method: 'PATCH',
      body: { node_overrides: { build: { extra_prompt: 'Mind the tests.' } } },
    });
    expect(set.status, set.text).toBe(200);
    expect((await post(jig, `/api/work-items/${item.id}/resume`, {})).status).toBe(200);
    expect((await until(jig, item.id, ended)).status).toBe('completed');
    expect(jsonLines(f.prompts)[0].prompt).toContain('Do the thing.\n\nMind the tests.');
  });

  it('auto_escalate: false keeps the node’s escalation task from running; auto_escalate_stuck: false says so', async () => {
    const { jig, repo } = await agentSetup({ stuck: STUCK });
    const file = async (overrides: Record<string, unknown> | null): Promise<string> => {
      const r = await http(`${jig.url}/api/work-items`, {
        method: 'POST',
        body: {
          title: 'Stuck',
          repo,
          chain: 'stuck',
          start: true,
          ...(overrides ? { node_overrides: overrides } : {}),
        },
      });
      expect(r.status, r.text).toBe(201);
      return r.json.id;
    };
    const quiet = await file({ verify: { auto_escalate: false, auto_escalate_stuck: false } });
    expect((await until(jig, quiet, ended)).stop.kind).toBe('stuck');
    const skipped = await eventually(
      async () => {
        const evs = await events(jig, quiet);
        const e = evs.find((x) => x.type === 'work_item_auto_escalate_skipped');
        expect(e).toBeDefined();
        return evs;
      },
      { what: 'work_item_auto_escalate_skipped' },
    );
    const types = skipped.map((e) => e.type);
    expect(types).not.toContain('stuck_escalation_started');
    expect(types).not.toContain('escalation_message');
    expect(skipped.find((e) => e.type === 'node_stuck').payload.escalation).toBeNull();

    // The same chain without the override runs the node's escalation task first.
    const plain = await file(null);
    await until(jig, plain, ended, 600);
    const evs = await events(jig, plain);
    expect(evs.find((e) => e.type === 'stuck_escalation_started').payload.task).toBe(
      'verify.escalation.helper',
    );
  });
});
