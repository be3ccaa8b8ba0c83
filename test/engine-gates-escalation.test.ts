import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentSetup, jsonLines, sessions } from './helpers/agents.js';
import { events, fileItem, post, until } from './helpers/engine.js';
import { cleanupAll, runJig } from './helpers/server.js';
import { shareServerPerFile } from './helpers/shared-home.js';

// The tests need nothing of a server but their chains, policy and repository: they share one.
shareServerPerFile();

afterAll(cleanupAll);

const ended = (i: any) => i.status !== 'running' && i.status !== 'queued';

function script(rules: unknown[], fallback: unknown = { mode: 'fail' }): { file: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'jig-script-'));
  const file = join(dir, 'script.json');
  writeFileSync(file, JSON.stringify({ rules, default: fallback }));
  return { file, dir };
}

const REVIEWED = `
nodes:
  - id: write
    kind: exec
    tasks:
      - id: author
        kind: agent
        harness: claude
        produces: spec
        prompt: Write the spec document.
  - id: review
    kind: gate
    artifact: spec
    reject_to: write
    auto_review:
      id: reviewer
      kind: agent
      harness: claude
      prompt: Review the spec before a person does.
`;

describe('gate auto review', () => {
  it('an item filed with auto_gate: false leaves the gate to a person; a duplicate keeps the choice', async () => {
    const s = script([{ match: 'Write the spec document', mode: 'done' }], {
      mode: 'done',
      verdict: 'approve',
    });
    const { jig, repo } = await agentSetup({ reviewed: REVIEWED }, { env: { FAKE_AGENT_SCRIPT: s.file } });
    const filed = await post(jig, '/api/work-items', {
      title: 'No reviewer',
      repo,
      chain: 'reviewed',
      start: true,
      auto_gate: false,
    });
    expect(filed.status, filed.text).toBe(201);
    expect(filed.json.auto_gate).toBe(false);
    const stopped = await until(jig, filed.json.id, ended);
    expect(stopped.stop).toMatchObject({ kind: 'gate' });
    expect((await events(jig, filed.json.id)).map((e) => e.type)).not.toContain('gate_auto_review_started');
    const copy = await post(jig, `/api/work-items/${filed.json.id}/duplicate`, {});
    expect(copy.json).toMatchObject({ source: 'duplicate', auto_gate: false });
  });

  it('a reject sends the walk back with the concerns as the steer; the next review approves; no person needed', async () => {
    const s = script([
      {
        match: 'Review the spec before',
        times: 1,
        mode: 'done',
        verdict: 'reject',
        concerns: 'Name the API.',
      },
      { match: 'Review the spec before', mode: 'done', verdict: 'approve' },
      { match: 'Write the spec document', mode: 'done' },
    ]);
    const { jig, repo } = await agentSetup(
      { reviewed: REVIEWED },
      { env: { FAKE_AGENT_SCRIPT: s.file, FAKE_AGENT_PROMPT_LOG: join(s.dir, 'p.jsonl') } },
    );
    const item = await fileItem(jig, repo, 'reviewed');
    const done = await until(jig, item.id, ended);
    expect(done.status, JSON.stringify(done.stop)).toBe('completed');
    const ss = await sessions(jig, item.id);
    expect(ss.map((x) => x.task_path)).toEqual([
      'write.main.author',
      'review.auto_review',
      'write.main.author',
      'review.auto_review',
    ]);
    const evs = await events(jig, item.id);
    const rejected = evs.find((e) => e.type === 'gate_rejected');
    expect(rejected).toMatchObject({
      by: 'jig',
      payload: { gate: 'review', note: 'Name the API.', reject_to: 'write' },
    });
    const approved = evs.find((e) => e.type === 'gate_approved');
    expect(approved).toMatchObject({ by: 'jig', payload: { gate: 'review', auto_review: ss[3].id } });
    expect(evs.filter((e) => e.type === 'gate_auto_review_finished').map((e) => e.payload.verdict)).toEqual([
      'reject',
      'approve',
    ]);
    // The second author run read the reviewer's concerns.
    const authorRuns = jsonLines(join(s.dir, 'p.jsonl')).filter((p) =>
      p.prompt.includes('Write the spec document'),
    );
    expect(authorRuns[1].prompt).toContain('Name the API.');
  });

  it('an undecided review leaves the gate to a person, saying why', async () => {
    const s = script([
      { match: 'Review the spec before', mode: 'done', verdict: 'undecided', concerns: 'Two readings.' },
      { match: 'Write the spec document', mode: 'done' },
    ]);
    const { jig, repo } = await agentSetup({ reviewed: REVIEWED }, { env: { FAKE_AGENT_SCRIPT: s.file } });
    const item = await fileItem(jig, repo, 'reviewed');
    const at = await until(jig, item.id, ended);
    expect(at.status).toBe('stopped');
    expect(at.stop).toEqual({
      kind: 'gate',
      reason: 'approve or reject review (the auto review answered undecided: Two readings.)',
      suggested_action: null,
    });
    // One attempt per pending gate (policy default 1): approving by hand goes on.
    expect((await post(jig, `/api/work-items/${item.id}/gates/review/approve`)).status).toBe(200);
    expect((await until(jig, item.id, ended)).status).toBe('completed');
  });
});

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

describe('escalation', () => {
  it('an escalation turn helps a stopped item and asks Jig to retry it', async () => {
    const s = script([
      {
        match: 'What you are asked',
        mode: 'done',
        concerns: 'The config was wrong.',
        suggested_action: 'retry',
      },
      { match: 'Do the thing', mode: 'noop', times: 1 },
      // The retry the turn asked for goes on in the session that failed (its CLI session resumed).
      { match: 'asked Jig to try again', mode: 'done' },
    ]);
    const { jig, repo } = await agentSetup({ one: ONE }, { env: { FAKE_AGENT_SCRIPT: s.file } });
    const item = await fileItem(jig, repo, 'one');
    const stopped = await until(jig, item.id, ended);
    expect(stopped.stop.kind).toBe('failed');

    const bad = await post(jig, `/api/work-items/${item.id}/escalate`, {});
    expect(bad.status).toBe(422);
    const r = await post(jig, `/api/work-items/${item.id}/escalate`, { message: 'Why did it fail?' });
    expect(r.status, r.text).toBe(202);
    expect(r.json).toEqual({
      work_item_id: item.id,
      session: expect.stringMatching(/^s[0-9a-f]{12}$/),
      harness: 'claude',
      continues: null,
    });
    const done = await until(jig, item.id, (i) => i.status === 'completed');
    expect(done.status).toBe('completed');
    const evs = await events(jig, item.id);
    expect(evs.find((e) => e.type === 'escalation_message')).toMatchObject({
      by: 'human',
      payload: { message: 'Why did it fail?', harness: 'claude' },
    });
    expect(evs.find((e) => e.type === 'escalation_finished').payload).toEqual({
      session: r.json.session,
      status: 'done',
      concerns: 'The config was wrong.',
      suggested_action: 'retry',
    });
    const ss = await sessions(jig, item.id);
    const failed = ss.find((x) => x.task_path === 'build.main.work' && x.status === 'failed');
    expect(evs.find((e) => e.type === 'work_item_retried')).toMatchObject({
      by: 'agent',
      payload: { node: 'build', resumes: failed.id },
    });
    const rerun = ss.filter((x) => x.task_path === 'build.main.work').at(-1);
    expect(rerun.argv).toEqual(expect.arrayContaining(['--resume', failed.cli_session_id]));
    expect(ss.find((x) => x.id === r.json.session)).toMatchObject({ node: '<escalation>', kind: 'agent' });
  });

  it('refuses an item a spend cap stopped (409 naming the cap), and an item that is not stopped', async () => {
    const capped = `
nodes:
  - id: build
    kind: exec
    tasks:
      - id: work
        kind: agent
        harness: claude
        prompt: Do the thing.
        policy:
          token_budget: 100
`;
    const { jig, repo, home } = await agentSetup(
      { capped, one: ONE },
      { env: { FAKE_AGENT_MODE: 'done', FAKE_AGENT_TOKENS: '400,100' } },
    );
    const first = await fileItem(jig, repo, 'capped');
    // The session told its 500 tokens at its end, past the task's cap: the item stops there (issue 40).
    const capStop = await until(jig, first.id, ended);
    expect([capStop.status, capStop.stop.kind]).toEqual(['stopped', 'budget']);
    expect(capStop.stop.reason).toContain(
      'token_budget of task build.main.work: 500 tokens used of 100 tokens',
    );
    const second = await fileItem(jig, repo, 'capped', false);
    const paused = await post(jig, `/api/work-items/${second.id}/escalate`, { message: 'help' });
    expect(paused.status).toBe(409);
    expect(paused.json).toEqual({
      detail: 'the item is paused; only a stopped item can be escalated',
      code: 'item_wrong_status',
      status: 'paused',
      allowed: ['stopped'],
    });

    // The first launch spends past the item's budget; the next one is refused before it starts.
    const budget = `
nodes:
  - id: build
    kind: exec
    tasks:
      - id: work
        kind: agent
        harness: claude
        prompt: Do the thing.
  - id: more
    kind: exec
    tasks:
      - id: work
        kind: agent
        harness: claude
        prompt: Do more.
`;
    writeFileSync(join(home, 'config', 'chains', 'budget.yaml'), budget);
    expect((await post(jig, '/api/templates/reload')).status).toBe(200);
    const r = await post(jig, '/api/work-items', {
      title: 'small budget',
      repo,
      chain: 'budget',
      start: true,
      budget_usd: 0.000001,
    });
    expect(r.status, r.text).toBe(201);
    const stopped = await until(jig, r.json.id, (i) => i.status === 'stopped' && i.stop?.kind === 'budget');
    expect(stopped.stop.reason).toMatch(/dollar budget/);
    const refused = await post(jig, `/api/work-items/${r.json.id}/escalate`, { message: 'help' });
    expect(refused.status).toBe(409);
    expect(refused.json.code).toBe('escalation_spend_cap');
    expect(refused.json.detail).toMatch(
      /^the item was stopped by a spend cap \(.*dollar budget.*\); raise that cap before escalating$/,
    );
    const none = await post(jig, `/api/work-items/${r.json.id}/escalate/stop`);
    expect(none.status).toBe(409);
    expect(none.json.detail).toBe('no escalation turn is running for this item');

    // The CLI verb: a usage error without a message, the API's refusal passed on.
    const env = { JIG_HOME: home };
    const usage = await runJig(['item', 'escalate', r.json.id], env);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('escalate needs --message');
    const cli = await runJig(['item', 'escalate', r.json.id, '--message', 'help'], env);
    expect(cli.code).not.toBe(0);
    expect(cli.stderr).toContain('raise that cap before escalating');
  });

  it('a stuck item gets an escalation turn by itself; its fix and retry carry the item to the end', async () => {
    const stuck = `
nodes:
  - id: verify
    kind: exec
    tasks:
      - id: test
        kind: subprocess
        run: test -f fake-agent-change.txt
    fix_loop:
      tasks:
        - id: repair
          kind: subprocess
          run: 'true'
      judge:
        kind: subprocess
        run: |
          printf '%s' '{"status":"done","verdict":"stop_needs_human","concerns":"needs a person"}' > "$JIG_RESULT_PATH"
`;
    const s = script([{ match: 'What you are asked', mode: 'fix', suggested_action: 'retry' }]);
    const { jig, repo } = await agentSetup({ stuck }, { env: { FAKE_AGENT_SCRIPT: s.file } });
    const item = await fileItem(jig, repo, 'stuck');
    const done = await until(jig, item.id, (i) => i.status === 'completed', 600);
    expect(done.status).toBe('completed');
    const evs = await events(jig, item.id);
    const types = evs.map((e) => e.type);
    expect(types).toEqual(
      expect.arrayContaining([
        'node_stuck',
        'escalation_message',
        'escalation_finished',
        'work_item_retried',
      ]),
    );
    expect(evs.find((e) => e.type === 'escalation_message')).toMatchObject({
      by: 'jig',
      payload: { harness: 'claude' },
    });
    expect(evs.find((e) => e.type === 'escalation_message').payload.message).toMatch(
      /^Jig stopped this item as stuck: verify\.fix_loop: the judge asked for a person: needs a person\./,
    );
  });
});
