import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentSetup, fakeWith, harnessesYaml, jsonLines, sessions, setRepoKeys } from './helpers/agents.js';
import { events, fileItem, until } from './helpers/engine.js';
import { eventually } from './helpers/eventually.js';
import { git } from './helpers/git.js';
import { cleanupAll, http, startJig, type JigProcess } from './helpers/server.js';
import { shareServerPerFile } from './helpers/shared-home.js';

// The tests need nothing of a server but their chains, policy and repository: they share one.
shareServerPerFile();

afterAll(cleanupAll);

const ONE_AGENT = `
description: one agent task
nodes:
  - id: build
    kind: exec
    tasks:
      - id: implement
        kind: agent
        harness: claude
        prompt: Add the feature.
`;

const ended = (i: any) => i.status !== 'running' && i.status !== 'queued';

/** The item's first session, once its CLI has started (it reports its session id in the stream). */
const cliStarted = (jig: JigProcess, id: string): Promise<any> =>
  eventually(
    async () => {
      const [first] = await sessions(jig, id);
      return first?.cli_session_id ? first : undefined;
    },
    { what: `the agent CLI of ${id} to report its session id` },
  );

describe('agent tasks through the engine (fake CLIs)', () => {
  it('runs an agent task: argv from the provider, contract in the system prompt, usage and cost recorded', async () => {
    const logs = mkdtempSync(join(tmpdir(), 'jig-agent-'));
    const { jig, repo } = await agentSetup(
      { one: ONE_AGENT },
      {
        env: {
          FAKE_AGENT_MODE: 'fix',
          FAKE_AGENT_TOKENS: '1000,200,50,10',
          FAKE_AGENT_ARGV_LOG: join(logs, 'argv.jsonl'),
          FAKE_AGENT_PROMPT_LOG: join(logs, 'prompt.jsonl'),
        },
      },
    );
    const item = await fileItem(jig, repo, 'one');
    const done = await until(jig, item.id, ended);
    expect(done.status, JSON.stringify(done.stop)).toBe('completed');
    const [s] = await sessions(jig, item.id);
    expect(s).toMatchObject({
      kind: 'agent',
      status: 'done',
      harness: 'claude',
      provider: 'claude',
      model: 'claude-sonnet-4-5',
      tokens: { input: 1000, output: 200, cache_read: 50, cache_write: 10 },
      cost_source: 'reported',
      note: null,
    });
    expect(s.cost_usd).toBeGreaterThan(0);
    expect(s.cli_session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(done.spent_usd).toBeCloseTo(s.cost_usd, 6);
    expect(done.spent_tokens).toBe(1260);
    const [argv] = jsonLines(join(logs, 'argv.jsonl'));
    expect(argv.slice(0, 2)).toEqual(['-p', `Work item ${item.id}: Run one\n\nYour task: Add the feature.`]);
    expect(argv).toContain('--append-system-prompt');
    expect(argv).toEqual(
      expect.arrayContaining(['--output-format', 'stream-json', '--verbose', '--model', 'sonnet']),
    );
    // Headless Claude denies unlisted tools, so the launch grants the working set.
    expect(argv[argv.indexOf('--allowedTools') + 1]).toContain('Bash');
    const [p] = jsonLines(join(logs, 'prompt.jsonl'));
    expect(p.system_prompt).toContain('JIG_RESULT_PATH');
    // The agent's commit is on the item's branch.
    expect(git(repo, 'log', '--format=%s', '-1', done.branch).trim()).toBe('fake claude: fix');
    const types = (await events(jig, item.id)).map((e) => e.type);
    expect(types).toEqual(
      expect.arrayContaining(['worker_session_started', 'worker_session_exited', 'work_item_completed']),
    );
  });

  it('an agent that ends without its result file has failed, whatever its exit code', async () => {
    const { jig, repo } = await agentSetup({ one: ONE_AGENT }, { env: { FAKE_AGENT_MODE: 'noop' } });
    const item = await fileItem(jig, repo, 'one');
    const done = await until(jig, item.id, ended);
    expect(done.status).toBe('stopped');
    expect(done.stop.kind).toBe('failed');
    const [s] = await sessions(jig, item.id);
    expect(s.status).toBe('failed');
    expect(s.exit_code).toBe(0);
    expect(s.note).toBe('the agent exited 0 without writing its result file');
  });

  it('a refused API key stops the item as infra, not as a code failure', async () => {
    const { jig, repo } = await agentSetup({ one: ONE_AGENT }, { env: { FAKE_AGENT_MODE: 'auth' } });
    const item = await fileItem(jig, repo, 'one');
    const done = await until(jig, item.id, ended);
    expect(done.status).toBe('stopped');
    expect(done.stop.kind).toBe('infra');
    expect(done.stop.reason).toMatch(/not logged in or its API key was refused/);
    const [s] = await sessions(jig, item.id);
    expect(s.status).toBe('infra_error');
    expect(s.readout).toMatchObject({ is_error: true });
  });

  it('a rate-limited harness falls back to the next candidate; all limited parks the item', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jig-fakes-'));
    const limited = fakeWith(dir, 'claude-limited', 'claude', {
      FAKE_AGENT_MODE: 'rate_limit',
      FAKE_AGENT_RESETS_AT: String(Math.floor(Date.now() / 1000) + 3600),
    });
    const chain = `
nodes:
  - id: build
    kind: exec
    tasks:
      - id: implement
        kind: agent
        harness: claude
        prompt: Add the feature.
        fallback:
          - harness: codex
            model: gpt-5-codex
`;
    const { jig, repo, home } = await agentSetup(
      { fb: chain },
      { harnesses: harnessesYaml({ claude: limited }), env: { FAKE_AGENT_MODE: 'done' } },
    );
    const item = await fileItem(jig, repo, 'fb');
    const done = await until(jig, item.id, ended);
    expect(done.status, JSON.stringify(done.stop)).toBe('completed');
    const ss = await sessions(jig, item.id);
    expect(ss.map((s) => [s.harness, s.status])).toEqual([
      ['claude', 'rate_limited'],
      ['codex', 'done'],
    ]);
    expect(ss[1].cost_source).toBe('estimated');
    const evs = await events(jig, item.id);
    const hit = evs.find((e) => e.type === 'rate_limit_hit');
    expect(hit.payload).toMatchObject({ harness: 'claude', task: 'build.main.implement' });
    expect(evs.find((e) => e.type === 'launch_fallback').payload).toMatchObject({ from: 0, to: 1 });

    // Both limited: the item parks until the earliest reset.
    const codexLimited = fakeWith(dir, 'codex-limited', 'codex', { FAKE_AGENT_MODE: 'rate_limit' });
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      join(home, 'config', 'harnesses.yaml'),
      harnessesYaml({ claude: limited, codex: codexLimited }),
    );
    setRepoKeys(home, repo, { env: { FAKE_AGENT_MODE: 'done' } });
    const second = await fileItem(jig, repo, 'fb');
    const parked = await until(jig, second.id, ended);
    expect(parked.status).toBe('stopped');
    expect(parked.stop.kind).toBe('rate_limit');
    // Parked, it goes on by itself at the reset: shown as rate limited, not as needing a person.
    expect(parked.display_status).toBe('rate_limited');
    // The stop is written first, the parking after it (walker.ts): the item can read as stopped
    // before its `work_item_parked` is there.
    const evs2 = await eventually(
      async () => {
        const types = (await events(jig, second.id)).map((e) => e.type);
        return types.includes('work_item_parked') ? types : undefined;
      },
      { what: `${second.id} to be parked` },
    );
    expect(evs2).toEqual(expect.arrayContaining(['launch_fallback_exhausted', 'work_item_parked']));
    // The harness Jig already knows is limited is skipped without a launch.
    const ss2 = await sessions(jig, second.id);
    expect(ss2.map((s) => s.harness)).toEqual(['codex']);
  });

  it('a token budget crossed mid-stream ends the agent at once and stops the item on its budget', async () => {
    const chain = `
nodes:
  - id: build
    kind: exec
    tasks:
      - id: implement
        kind: agent
        harness: claude
        prompt: Add the feature.
        policy:
          token_budget: 500
`;
    const { jig, repo } = await agentSetup(
      { capped: chain },
      {
        env: {
          FAKE_AGENT_MODE: 'slow',
          FAKE_AGENT_STEPS: '40',
          FAKE_AGENT_DELAY_MS: '300',
          FAKE_AGENT_TOKENS: '4000,800',
        },
      },
    );
    const item = await fileItem(jig, repo, 'capped');
    const done = await until(jig, item.id, ended, 600);
    expect(done.status).toBe('stopped');
    expect(done.stop.kind).toBe('budget');
    expect(done.stop.reason).toMatch(/token_budget of task build\.main\.implement/);
    const [s] = await sessions(jig, item.id);
    expect(s.status).toBe('budget_exceeded');
    const used = s.tokens.input + s.tokens.output + s.tokens.cache_read + s.tokens.cache_write;
    expect(used).toBeGreaterThan(500);
    // Stopped long before the stream's end (4800 tokens over 40 steps).
    expect(used).toBeLessThan(4800);
  });

  it('steering after a pause resumes the same CLI session with the steer as its prompt', async () => {
    const logs = mkdtempSync(join(tmpdir(), 'jig-agent-'));
    const { jig, repo, home } = await agentSetup(
      { one: ONE_AGENT },
      {
        env: {
          FAKE_AGENT_MODE: 'sleep',
          FAKE_AGENT_PROMPT_LOG: join(logs, 'prompt.jsonl'),
        },
      },
    );
    const item = await fileItem(jig, repo, 'one');
    // Wait for the CLI to have started (it reports its session id in the stream).
    const first = await cliStarted(jig, item.id);
    expect(
      (await http(`${jig.url}/api/work-items/${item.id}/pause`, { method: 'POST', body: {} })).status,
    ).toBe(200);
    await until(jig, item.id, (i) => i.status === 'paused');
    const steer = await http(`${jig.url}/api/work-items/${item.id}/steer`, {
      method: 'POST',
      body: { note: 'Use the existing helper instead.' },
    });
    expect(steer.status, steer.text).toBe(200);
    setRepoKeys(home, repo, {
      env: { FAKE_AGENT_MODE: 'done', FAKE_AGENT_PROMPT_LOG: join(logs, 'prompt.jsonl') },
    });
    expect(
      (await http(`${jig.url}/api/work-items/${item.id}/resume`, { method: 'POST', body: {} })).status,
    ).toBe(200);
    const done = await until(jig, item.id, ended);
    expect(done.status, JSON.stringify(done.stop)).toBe('completed');
    const ss = await sessions(jig, item.id);
    expect(ss.map((s) => s.status)).toEqual(['paused', 'done']);
    expect(ss[1].cli_session_id).toBe(first.cli_session_id);
    const prompts = jsonLines(join(logs, 'prompt.jsonl'));
    expect(prompts.at(-1)).toMatchObject({
      prompt: 'Use the existing helper instead.',
      resume: first.cli_session_id,
    });
    // Delivered once: the item no longer carries it.
    const detail = await http(`${jig.url}/api/work-items/${item.id}`);
    expect(detail.json.steer ?? null).toBeNull();
  });

  for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
    it(`an agent session outlives the server (${signal}) and is adopted: its usage is read to the end`, async () => {
      // The session's last step waits for this file, so it is still running when the restarted
      // server looks, however busy the machine: the test lets it finish once it is adopted.
      const hold = join(mkdtempSync(join(tmpdir(), 'jig-hold-')), 'go');
      const { jig, repo, home } = await agentSetup(
        { one: ONE_AGENT },
        {
          env: {
            FAKE_AGENT_MODE: 'slow',
            FAKE_AGENT_STEPS: '6',
            FAKE_AGENT_DELAY_MS: '50',
            FAKE_AGENT_TOKENS: '1200,240',
            FAKE_AGENT_HOLD_FILE: hold,
          },
        },
      );
      const item = await fileItem(jig, repo, 'one');
      const first = await cliStarted(jig, item.id);
      expect(first.status).toBe('running');
      await jig.stop(signal);
      const again = await startJig({ home });
      await eventually(
        async () => (await events(again, item.id)).some((e) => e.type === 'session_reattached'),
        { what: 'the restarted server to adopt the session' },
      );
      writeFileSync(hold, '');
      const done = await until(again, item.id, ended);
      expect(done.status, JSON.stringify(done.stop)).toBe('completed');
      const [s] = await sessions(again, item.id);
      expect(s).toMatchObject({
        id: first.id,
        status: 'done',
        tokens: { input: 1200, output: 240, cache_read: 0, cache_write: 0 },
        cost_source: 'reported',
      });
      expect(done.spent_tokens).toBe(1440);
      expect(done.spent_usd).toBeCloseTo(s.cost_usd, 6);
      const types = (await events(again, item.id)).map((e) => e.type);
      expect(types).toContain('session_reattached');
    });
  }

  it('the sandbox rule: no network policy is a config stop at launch; a sandbox Jig cannot run is never skipped', async () => {
    const { jig, repo, home } = await agentSetup({ one: ONE_AGENT }, { env: { FAKE_AGENT_MODE: 'done' } });
    setRepoKeys(home, repo, { sandbox: { kind: 'podman', image: 'node:20' } });
    const a = await fileItem(jig, repo, 'one');
    const stopped = await until(jig, a.id, ended);
    expect(stopped.stop).toMatchObject({
      kind: 'config',
      reason: `repo ${repo} has a sandbox with no network: policy; set sandbox.network (allow lists) or unrestricted_network: true in repos.yaml`,
    });
    setRepoKeys(home, repo, { sandbox: { kind: 'podman', image: 'node:20', unrestricted_network: true } });
    const b = await fileItem(jig, repo, 'one');
    const refused = await until(jig, b.id, ended);
    expect(refused.stop.kind, refused.stop.reason).toBe('config');
    // Without podman the launch is refused; with it, the image is missing (Jig never pulls) and the
    // jail never starts. Either way the agent never ran, jailed or not.
    expect(refused.stop.reason).toMatch(
      /asks for a podman sandbox.*Jig will not run the task unsandboxed$|its sandbox could not start, so the task never ran: podman create: .*node:20: image not known/,
    );
    expect((await sessions(jig, b.id)).map((s) => s.status)).toEqual(
      refused.stop.reason.includes('could not start') ? ['config_error'] : [],
    );
  });

  it('falling back to a harness the policy does not allow is refused, not launched', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jig-fakes-'));
    const limited = fakeWith(dir, 'claude-limited', 'claude', { FAKE_AGENT_MODE: 'rate_limit' });
    const chain = `
nodes:
  - id: build
    kind: exec
    tasks:
      - id: implement
        kind: agent
        harness: claude
        prompt: Add the feature.
        fallback:
          - harness: codex
            model: gpt-5-codex
`;
    const { jig, repo } = await agentSetup(
      { fb: chain },
      {
        harnesses: harnessesYaml({ claude: limited }),
        env: { FAKE_AGENT_MODE: 'done' },
        policy: 'defaults:\n  allowed_harnesses: [claude]\nmaxima:\n  allowed_harnesses: [claude]\n',
      },
    );
    const item = await fileItem(jig, repo, 'fb');
    const done = await until(jig, item.id, ended);
    expect(done.stop).toMatchObject({
      kind: 'config',
      reason: 'build.main.implement: harness codex is not allowed by policy (allowed_harnesses: claude)',
    });
    expect((await sessions(jig, item.id)).map((x) => x.harness)).toEqual(['claude']);
  });

  it("an item's policy_override replaces a scope's cap for that item; a malformed one is refused with 422", async () => {
    const chain = `
nodes:
  - id: build
    kind: exec
    tasks:
      - id: implement
        kind: agent
        harness: claude
        prompt: Add the feature.
        policy:
          token_budget: 100
`;
    const { jig, repo } = await agentSetup(
      { capped: chain },
      {
        env: {
          FAKE_AGENT_MODE: 'slow',
          FAKE_AGENT_STEPS: '8',
          FAKE_AGENT_DELAY_MS: '250',
          FAKE_AGENT_TOKENS: '400,100',
        },
      },
    );
    const bad = await http(`${jig.url}/api/work-items`, {
      method: 'POST',
      body: {
        title: 'x',
        repo,
        chain: 'capped',
        policy_override: { 'build.main.implement': { token_budget: -1 } },
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.json.detail).toBe(
      'body.policy_override.build.main.implement.token_budget: must be a positive integer',
    );
    const r = await http(`${jig.url}/api/work-items`, {
      method: 'POST',
      body: {
        title: 'raised',
        repo,
        chain: 'capped',
        start: true,
        policy_override: { 'build.main.implement': { token_budget: 100000 } },
      },
    });
    expect(r.status, r.text).toBe(201);
    // Without the override the session (500 tokens over 8 steps) crosses 100 early and is ended.
    const done = await until(jig, r.json.id, ended);
    expect(done.status, JSON.stringify(done.stop)).toBe('completed');
    expect(done.spent_tokens).toBe(500);
  });

  it("a retry with task_config runs the node's agents on that model from then on; a bad model id is 422", async () => {
    const { jig, repo } = await agentSetup({ one: ONE_AGENT }, { env: { FAKE_AGENT_MODE: 'noop' } });
    const item = await fileItem(jig, repo, 'one');
    expect((await until(jig, item.id, ended)).stop.kind).toBe('failed');
    const url = `${jig.url}/api/work-items/${item.id}/retry`;
    const bad = await http(url, { method: 'POST', body: { task_config: { model: 'opus; rm -rf /' } } });
    expect(bad.status).toBe(422);
    expect(bad.json).toEqual({
      detail: 'task_config.model: "opus; rm -rf /" is not a model id',
      code: 'invalid_model_override',
    });
    const r = await http(url, {
      method: 'POST',
      body: { path: 'build', task_config: { model: 'claude-opus-4-1', effort: 'high' } },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.node_overrides).toEqual({ build: { model: 'claude-opus-4-1', effort: 'high' } });
    await until(jig, item.id, ended);
    const all = await sessions(jig, item.id);
    expect(all.map((s: any) => s.model)).toEqual(['claude-sonnet-4-5', 'claude-opus-4-1']);
    const changed = (await events(jig, item.id)).filter((e: any) => e.type === 'node_overrides_changed');
    expect(changed.map((e: any) => [e.by, e.payload])).toEqual([
      ['human', { value: { build: { model: 'claude-opus-4-1', effort: 'high' } } }],
    ]);
  });
});
