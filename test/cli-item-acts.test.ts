import { GATED_CHAIN } from './helpers/gated-chain.js';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentSetup } from './helpers/agents.js';
import { events, oneCommand, until } from './helpers/engine.js';
import { eventually } from './helpers/eventually.js';
import { git } from './helpers/git.js';
import { cleanupAll, http, runJig, type JigProcess } from './helpers/server.js';

/*
 * `jig item create` with its setup flags, `approve|reject|raise-budget`, the flags of
 * `resume|skip|retry|escalate`, the worker verb `progress` and the review and worker verbs, run as
 * the real CLI against a real server; every change is read back with GET. The gated chain commits a
 * file, stops at a gate and finishes once the gate is approved, with no agent CLI involved; the
 * harnesses are the fake CLIs, which only the escalation turns launch.
 */

const GATED = GATED_CHAIN;
/** A gate before an agent task: a steer for the task is recorded, and no agent starts. */
const STEERED = `
nodes:
  - id: hold
    kind: gate
    message: Not yet
  - id: work
    kind: exec
    tasks:
      - id: implement
        kind: agent
        harness: claude
        prompt: Do the work.
`;
/** One command that fails: the item stops (failed) at once. */
const FAILS = oneCommand('exit 3');

let jig: JigProcess;
let repo: string;
const api = (method: string, path: string, body?: unknown) => http(`${jig.url}${path}`, { method, body });
const read = async (id: string): Promise<any> => (await api('GET', `/api/work-items/${id}`)).json;
const total = async (): Promise<number> => (await api('GET', '/api/work-items?archived=all')).json.total;

/** Runs the built CLI in `cwd` (default: the repo) with this server's home and no worker id. */
function cli(
  args: string[],
  opts: { cwd?: string; env?: Record<string, string> } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { JIG_HOME: jig.home, ...opts.env };
  if (!opts.env?.JIG_WORK_ITEM_ID) env.JIG_WORK_ITEM_ID = undefined;
  return runJig(args, env, undefined, opts.cwd ?? repo);
}
const usage = (stderr: string) => ({ code: 2, stdout: '', stderr: `jig: ${stderr}\n` });

/** Files an item with the CLI and answers it as GET reads it. */
async function create(...args: string[]): Promise<any> {
  const r = await cli(['item', 'create', 'Acts under test', '--json', ...args]);
  expect(r.code, r.stderr).toBe(0);
  const created = JSON.parse(r.stdout);
  // A started item moves on at once: only a paused one still reads as it was filed.
  if (created.status === 'paused') expect(created).toEqual(await read(created.id));
  else expect(Object.keys(created).sort()).toEqual(Object.keys(await read(created.id)).sort());
  return created;
}

const atGate = (i: any) => i.status === 'stopped' && i.stop?.kind === 'gate';

beforeAll(async () => {
  ({ jig, repo } = await agentSetup({ gated: GATED, steered: STEERED, fails: FAILS }));
  git(repo, 'branch', 'develop');
});
afterAll(cleanupAll);

describe('item create', () => {
  it('files paused by default and passes --base-branch, --node-override and --policy', async () => {
    const item = await create(
      '--chain',
      'gated',
      '--base-branch',
      'develop',
      '--node-override',
      'build.model=sonnet',
      '--node-override',
      'build.effort=high',
      '--policy',
      'verification.max_attempts=3',
      '--policy',
      'verification.review.max_attempts=1',
    );
    expect(item).toMatchObject({
      status: 'paused',
      chain: 'gated',
      base_branch: 'develop',
      node_overrides: { build: { model: 'sonnet', effort: 'high' } },
      policy_override: { 'verification.max_attempts': 3, 'verification.review.max_attempts': 1 },
    });
    const line = await cli(['item', 'create', 'Plain', '--chain', 'gated']);
    expect(line.code).toBe(0);
    expect(line.stdout).toMatch(/^filed [a-z2-9]{8} "Plain" on gated, paused\n$/);
  });

  it('--autostart starts the item; a worker is refused it', async () => {
    const item = await create('--chain', 'gated', '--autostart');
    expect(['running', 'queued', 'stopped']).toContain(item.status);
    expect(item.started_at).not.toBeNull();
    await until(jig, item.id, atGate);
    const before = await total();
    expect(
      await cli(['item', 'create', 'From a task', '--autostart'], { env: { JIG_WORK_ITEM_ID: item.id } }),
    ).toEqual(
      usage(
        '--autostart is refused inside a work item task (JIG_WORK_ITEM_ID is set): items an agent files land paused',
      ),
    );
    expect(await total()).toBe(before);
  });

  it('--implements links beads to the item; a bad bead id is refused naming the field, filing nothing', async () => {
    const item = await create('--implements', 'Jig-abc', '--implements', 'Jig-def');
    const shown = (await http(`${jig.url}/api/work-items/${item.id}`)).json;
    expect(shown.issues).toEqual([
      { tracker: 'beads', id: 'Jig-abc', priority: null, how: 'implements', closing: 'open', url: null },
      { tracker: 'beads', id: 'Jig-def', priority: null, how: 'implements', closing: 'open', url: null },
    ]);
    const before = await total();
    const bad = await cli(['item', 'create', 'x', '--implements', 'no spaces']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('body.implements.0');
    expect(await total()).toBe(before);
  });

  it('--auto-gate and --no-auto-gate say whether a gate reviewer decides first; left out, what a person files has it', async () => {
    expect((await create('--chain', 'gated')).auto_gate).toBe(true);
    expect((await create('--chain', 'gated', '--no-auto-gate')).auto_gate).toBe(false);
    expect((await create('--chain', 'gated', '--auto-gate')).auto_gate).toBe(true);
  });

  it('--skip-nodes files the item to pass those nodes; a bad list is a usage error, an unknown node the API 422', async () => {
    const item = await create('--chain', 'gated', '--skip-nodes', 'review,finish', '--autostart');
    expect(item.skip_nodes).toEqual(['review', 'finish']);
    const done = await until(jig, item.id, (i) => i.status === 'completed');
    expect((await events(jig, done.id)).filter((e) => e.type === 'node_skipped').map((e) => e.node)).toEqual([
      'review',
      'finish',
    ]);
    const before = await total();
    const typo = await cli(['item', 'create', 'x', '--skip-nodes', 'review,,finish']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('node ids separated by commas, e.g. plan,plan_approval');
    expect(await cli(['item', 'create', 'x', '--chain', 'gated', '--skip-nodes', 'deploy'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'jig: body.skip_nodes: deploy is not a node of chain gated (its nodes: build, review, finish) (HTTP 422, validation_failed)\n',
    });
    expect(await total()).toBe(before);
  });

  it('--after files an item blocked on another; set-after and unblock change it, a cycle and a stranger refused', async () => {
    const a = await create('--chain', 'gated');
    const filed = await cli([
      'item',
      'create',
      'Comes after',
      '--chain',
      'gated',
      '--after',
      a.id,
      '--autostart',
    ]);
    expect(filed.code, filed.stderr).toBe(0);
    const id = /filed (\S+) /.exec(filed.stdout)![1]!;
    expect(filed.stdout).toBe(`filed ${id} "Comes after" on gated, blocked\n`);
    expect((await read(id)).waiting_on).toEqual([{ id: a.id, title: a.title, status: 'paused' }]);
    const cycle = await cli(['item', 'set-after', a.id, '--after', id]);
    expect(cycle.code).toBe(2);
    expect(cycle.stderr).toContain(
      `after: coming after these would close a cycle: ${a.id} → ${id} → ${a.id}`,
    );
    const stranger = await cli(['item', 'unblock', id, '--dependency', 'nope1234']);
    expect([stranger.code, stranger.stderr]).toEqual([
      2,
      `jig: the item does not come after nope1234; it comes after: ${a.id} (HTTP 409, not_a_dependency)\n`,
    ]);
    const unblocked = await cli(['item', 'unblock', id, '--json']);
    expect(unblocked.code, unblocked.stderr).toBe(0);
    expect(JSON.parse(unblocked.stdout)).toEqual({ id, dropped: [a.id], waiting_on: [], status: 'running' });
    await until(jig, id, atGate);
    const none = await cli(['item', 'set-after', a.id, '--none']);
    expect([none.code, none.stdout]).toEqual([0, `${a.id} comes after nothing (paused)\n`]);
    await api('POST', `/api/work-items/${id}/cancel`, {});
  });

  it('refuses bad --node-override and --policy values before asking the server', async () => {
    const bad = await cli(['item', 'create', 'x', '--node-override', 'build.auto_escalate=maybe']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('build.auto_escalate takes true or false');
    const late = await cli(['item', 'create', 'x', '--node-override', 'build.auto_escalate_delay_s=-1']);
    expect(late.code).toBe(2);
    expect(late.stderr).toContain('build.auto_escalate_delay_s takes whole seconds from 0 to 86400');
    const odd = await cli(['item', 'create', 'x', '--node-override', 'build.colour=blue']);
    expect(odd.code).toBe(2);
    expect(odd.stderr).toContain(
      'colour is not one of model, effort, extra_prompt, auto_escalate, auto_escalate_stuck, auto_escalate_delay_s',
    );
    const noDot = await cli(['item', 'create', 'x', '--node-override', 'model=opus']);
    expect(noDot.code).toBe(2);
    expect(noDot.stderr).toContain('model is not NODE.FIELD');
    const twice = await cli([
      'item',
      'create',
      'x',
      '--node-override',
      'a.model=x',
      '--node-override',
      'a.model=y',
    ]);
    expect(twice).toEqual(usage('--node-override a.model is given twice'));
    const policy = await cli(['item', 'create', 'x', '--policy', 'verification.nope=1']);
    expect(policy.code).toBe(2);
    expect(policy.stderr).toContain('nope is not one of');
  });
});

describe('approve and reject', () => {
  it('reject sends the walk back, approve finishes it; both infer the item inside its worktree', async () => {
    const item = await create('--chain', 'gated', '--autostart');
    await until(jig, item.id, atGate);
    const worktree = join(jig.home, 'run', 'worktrees', item.id);
    expect(realpathSync(worktree)).toBeTruthy();

    const rejected = await cli(['item', 'reject', '--note', 'Say more in out.txt'], { cwd: worktree });
    expect(rejected.code, rejected.stderr).toBe(0);
    expect(rejected.stdout).toMatch(new RegExp(`^rejected review on ${item.id}; the item is `));
    const back = await until(jig, item.id, atGate);
    const evs = await events(jig, item.id);
    expect(evs.find((e) => e.type === 'gate_rejected')).toMatchObject({
      by: 'human',
      payload: { gate: 'review', note: 'Say more in out.txt' },
    });
    expect(back.current_node).toBe('review');

    const approved = await cli(['item', 'approve', '--gate', 'review'], { cwd: join(worktree) });
    expect(approved).toEqual({
      code: 0,
      stdout: `approved review on ${item.id}; the item is now running\n`,
      stderr: '',
    });
    const done = await until(jig, item.id, (i) => i.status === 'completed');
    expect(done.status).toBe('completed');
    expect((await events(jig, item.id)).filter((e) => e.type === 'gate_approved')).toHaveLength(1);
  });

  it('--json prints the API payload; no gate, no note or no ID are refused', async () => {
    const item = await create('--chain', 'gated', '--autostart');
    await until(jig, item.id, atGate);
    const json = await cli(['item', 'approve', item.id, '--json']);
    expect(json.code, json.stderr).toBe(0);
    const payload = JSON.parse(json.stdout);
    expect(payload).toMatchObject({ id: item.id, chain: 'gated' });
    expect(Object.keys(payload).sort()).toEqual(Object.keys(await read(item.id)).sort());
    await until(jig, item.id, (i) => i.status === 'completed');

    expect(await cli(['item', 'approve', item.id])).toEqual(
      usage(`${item.id} is not waiting at a gate (the item is completed): nothing to approve`),
    );
    expect(await cli(['item', 'reject', item.id])).toEqual(
      usage('reject needs --note TEXT: what should change'),
    );
    // The repo's own checkout is no item's worktree.
    expect(await cli(['item', 'approve'])).toEqual(
      usage("approve needs a work item ID (or run it inside an item's worktree)"),
    );
    const missing = await cli(['item', 'approve', 'zzzzzzzz', '--gate', 'review']);
    expect(missing).toEqual(usage('no work item zzzzzzzz (HTTP 404, item_not_found)'));
  });
});

describe('raise-budget', () => {
  it('raises the own cap, --usd none drops it; --json is the API payload', async () => {
    const item = await create('--chain', 'gated');
    expect(await cli(['item', 'raise-budget', item.id, '--usd', '5'])).toEqual({
      code: 0,
      stdout: `raised the budget of ${item.id} to $5.00 (spent $0.00); the item is paused\n`,
      stderr: '',
    });
    expect((await read(item.id)).budget_cap).toEqual({ cap_usd: 5, key: 'item', spent_usd: 0 });
    const json = await cli(['item', 'raise-budget', item.id, '--usd', '7.5', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(await read(item.id));
    expect((await read(item.id)).budget_cap.cap_usd).toBe(7.5);

    expect(await cli(['item', 'raise-budget', item.id, '--usd', 'none'])).toEqual({
      code: 0,
      stdout: `dropped the own budget cap of ${item.id} (spent $0.00); the policy cap of $10.00 still applies; the item is paused\n`,
      stderr: '',
    });
    // The seeded policy caps every item at $10.
    expect((await read(item.id)).budget_cap).toEqual({ cap_usd: 10, key: 'policy', spent_usd: 0 });
    const capped = await create('--chain', 'gated', '--budget', '3');
    expect(capped.budget_cap).toEqual({ cap_usd: 3, key: 'item', spent_usd: 0 });
    const uncapped = await create('--chain', 'gated', '--budget', 'none');
    expect(uncapped.budget_cap).toEqual({ cap_usd: 10, key: 'policy', spent_usd: 0 });
  });

  it('refuses a missing or bad amount', async () => {
    const item = await create('--chain', 'gated');
    expect(await cli(['item', 'raise-budget', item.id])).toEqual(
      usage('raise-budget needs --usd N (dollars) or --usd none'),
    );
    const bad = await cli(['item', 'raise-budget', item.id, '--usd', 'lots']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('a dollar amount above 0, or none');
  });
});

describe('resume, skip, retry and escalate flags', () => {
  const typed = async (id: string, type: string) => (await events(jig, id)).filter((e) => e.type === type);

  it('resume refuses --note with --steer and a --steer-task that is not PATH=TEXT before asking the server', async () => {
    const item = await create('--chain', 'steered');
    expect(await cli(['item', 'resume', item.id, '--note', 'a', '--steer', 'b'])).toEqual(
      usage('--note and --steer are the same note: give one'),
    );
    const noEq = await cli(['item', 'resume', item.id, '--steer-task', 'work.main.implement']);
    expect(noEq.code).toBe(2);
    expect(noEq.stderr).toContain('expected PATH=TEXT');
    const empty = await cli(['item', 'resume', item.id, '--steer-task', 'work.main.implement= ']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('the steer for work.main.implement is empty');
    expect(await read(item.id)).toMatchObject({ status: 'paused', started_at: null });
    expect((await events(jig, item.id)).map((e) => e.type)).toEqual(['work_item_created']);
  });

  it('resume --steer-task: a path naming no agent task is the server 422; a good one is recorded with the start', async () => {
    const item = await create('--chain', 'steered');
    expect(await cli(['item', 'resume', item.id, '--steer-task', 'work.main.review=Look again'])).toEqual(
      usage(
        'body.steers.work.main.review: names no agent task of chain steered (its agent tasks: work.main.implement) (HTTP 422, validation_failed)',
      ),
    );
    expect(await read(item.id)).toMatchObject({ status: 'paused', started_at: null });

    const r = await cli([
      'item',
      'resume',
      item.id,
      '--steer',
      'Mind the docs.',
      '--steer-task',
      'work.main.implement=Use the new API.',
      '--steer-task',
      'work.main.implement=Use the newer API.',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const resumed = JSON.parse(r.stdout);
    expect(resumed.id).toBe(item.id);
    expect(['running', 'queued', 'stopped']).toContain(resumed.status);
    await until(jig, item.id, atGate);
    // --steer is the note for the next launch; a path given twice keeps its last text.
    expect((await typed(item.id, 'work_item_started')).map((e) => e.payload)).toEqual([
      {
        status: 'running',
        note: 'Mind the docs.',
        steers: { 'work.main.implement': 'Use the newer API.' },
      },
    ]);
  });

  it('skip --path marks a node still to come of a paused item; the walk then passes it', async () => {
    const item = await create('--chain', 'gated');
    const r = await cli([
      'item',
      'skip',
      item.id,
      '--path',
      'review',
      '--note',
      'no review needed',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const answer = JSON.parse(r.stdout);
    expect(answer).toEqual(await read(item.id));
    expect(answer).toMatchObject({ status: 'paused', skip_nodes: ['review'] });
    expect((await typed(item.id, 'skip_nodes_changed')).map((e) => e.payload)).toEqual([
      { from: [], to: ['review'], note: 'no review needed' },
    ]);
    const unknown = await cli(['item', 'skip', item.id, '--path', 'deploy']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      "no node deploy in the item's chain (its nodes: build, review, finish) (HTTP 422, validation_failed)",
    );
    expect((await read(item.id)).skip_nodes).toEqual(['review']);

    expect((await cli(['item', 'resume', item.id])).code).toBe(0);
    await until(jig, item.id, (i) => i.status === 'completed');
    expect((await typed(item.id, 'node_skipped')).map((e) => e.payload)).toEqual([
      { node: 'review', note: 'filed with skip_nodes' },
    ]);
  });

  it('retry --restart is recorded on work_item_retried; without it there is no restart', async () => {
    const item = await create('--chain', 'fails', '--autostart');
    const failed = (i: any) => i.status === 'stopped' && i.stop?.kind === 'failed';
    await until(jig, item.id, failed);
    const r = await cli(['item', 'retry', item.id, '--restart', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).id).toBe(item.id);
    await until(jig, item.id, failed);
    const plain = await cli(['item', 'retry', item.id]);
    expect(plain.code, plain.stderr).toBe(0);
    await until(jig, item.id, failed);
    expect((await typed(item.id, 'work_item_retried')).map((e) => [e.by, e.payload])).toEqual([
      ['human', { node: 'only', from: 'only', step: 'only.main', task: null, restart: true }],
      ['human', { node: 'only', from: 'only', step: 'only.main', task: null }],
    ]);
  });

  it('escalate --new-thread starts a new conversation; the next turn goes on from it', async () => {
    const item = await create('--chain', 'fails', '--autostart');
    await until(jig, item.id, (i) => i.status === 'stopped' && i.stop?.kind === 'failed');
    const first = await cli(['item', 'escalate', item.id, '--message', 'Why does it fail?', '--new-thread']);
    expect(first.code, first.stderr).toBe(0);
    const m = new RegExp(
      `^escalated ${item.id}: session (s[0-9a-f]{12}) on claude \\(new conversation\\)\n$`,
    ).exec(first.stdout);
    expect(m, first.stdout).not.toBeNull();
    const turn = m![1]!;
    await eventually(async () => (await typed(item.id, 'escalation_finished')).length === 1, {
      what: 'the first escalation turn to end',
    });
    const next = await cli(['item', 'escalate', item.id, '--message', 'And now?', '--json']);
    expect(next.code, next.stderr).toBe(0);
    expect(JSON.parse(next.stdout)).toEqual({
      work_item_id: item.id,
      session: expect.stringMatching(/^s[0-9a-f]{12}$/),
      harness: 'claude',
      continues: turn,
    });
    expect((await typed(item.id, 'escalation_message')).map((e) => e.payload)).toEqual([
      { message: 'Why does it fail?', harness: 'claude' },
      { message: 'And now?', harness: 'claude', continues: turn },
    ]);
    await eventually(async () => (await typed(item.id, 'escalation_finished')).length === 2, {
      what: 'the second escalation turn to end',
    });
  });
});

describe('worker verbs and review verbs', () => {
  it('progress records the task for the worker item of JIG_WORK_ITEM_ID', async () => {
    const item = await create('--chain', 'gated');
    const r = await cli(['item', 'progress', '3'], { env: { JIG_WORK_ITEM_ID: item.id } });
    expect(r).toEqual({ code: 0, stdout: `recorded task 3 started on ${item.id}\n`, stderr: '' });
    const json = await cli(['item', 'progress', '4', item.id, '--json']);
    expect(json.code).toBe(0);
    const evs = await events(jig, item.id);
    const last = evs.filter((e) => e.type === 'plan_progress');
    expect(last.map((e) => e.payload.task)).toEqual(['3', '4']);
    expect(JSON.parse(json.stdout)).toEqual({ work_item_id: item.id, task: '4', seq: last[1].seq });
  });

  it('review verbs reach the routes: a thread opened, resolved, reopened, answered by the worker, listed', async () => {
    const item = await create('--chain', 'gated');
    const opened = await cli(['item', 'comment', item.id, '--body', 'why?', '--label', 'question']);
    expect(opened.code, opened.stderr).toBe(0);
    const m = /^opened thread (t[0-9a-f]{10}) on (\w+) \(general, question\)\n$/.exec(opened.stdout);
    expect(m?.[2]).toBe(item.id);
    const t = m![1]!;
    expect(await cli(['item', 'resolve', t, item.id])).toEqual({
      code: 0,
      stdout: `resolved thread ${t} on ${item.id}\n`,
      stderr: '',
    });
    expect(await cli(['item', 'reopen', t, item.id])).toEqual({
      code: 0,
      stdout: `reopened thread ${t} on ${item.id}\n`,
      stderr: '',
    });
    const reply = await cli(['item', 'reply', t, '--body', 'done', '--claim', 'fixed'], {
      env: { JIG_WORK_ITEM_ID: item.id },
    });
    expect(reply).toEqual({ code: 0, stdout: `replied on thread ${t} of ${item.id} (fixed)\n`, stderr: '' });
    expect((await cli(['view', 'threads', item.id])).stdout).toBe(
      `${t}\topen\tquestion\tgeneral\tfixed\twhy? (+1)\n`,
    );
    const review = await cli(['item', 'review', 'request-changes', item.id, '--summary', 'x']);
    expect(review.code).toBe(2);
    expect(review.stderr).toContain('no_fix_target');
    const selfOpen = await cli(['item', 'comment', item.id, '--body', 'me'], {
      env: { JIG_WORK_ITEM_ID: item.id },
    });
    expect(selfOpen.code).toBe(2);
    expect(selfOpen.stderr).toContain('worker_refused');
    const label = await cli(['item', 'mr-label', 'ready', 'small', '--item', item.id]);
    expect(label.code).toBe(2);
    expect(label.stderr).toContain(`work item ${item.id} has no merge request yet`);
  });

  it('their arguments are checked first: usage errors exit 2', async () => {
    expect(await cli(['item', 'comment', 'abcdefgh'])).toEqual(usage('comment needs --body TEXT'));
    expect(
      await cli([
        'item',
        'comment',
        '--body',
        'b',
        '--file',
        'a.ts',
        '--lines',
        '3',
        '--side',
        'old',
        '--suggest',
        'x',
      ]),
    ).toEqual(usage('--suggest replaces lines of the new side; it cannot go with --side old'));
    expect(await cli(['item', 'comment', '--body', 'b', '--file', 'a.ts', '--lines', '9-3'])).toEqual(
      usage('--lines 9-3 is not a line or a range A-B (1-based, A <= B)'),
    );
    expect(await cli(['item', 'reply', 't1'])).toEqual(usage('reply needs --body TEXT'));
    const verdict = await cli(['item', 'review', 'lgtm']);
    expect(verdict.code).toBe(2);
    expect(verdict.stderr).toContain('Allowed choices are comment, approve, request-changes');
    const label = await cli(['item', 'comment', '--body', 'b', '--label', 'blocker']);
    expect(label.code).toBe(2);
    expect(label.stderr).toContain('Allowed choices are must-fix, question, nit');
  });
});

describe('help', () => {
  it('lists every flag and the valid values', async () => {
    const help = async (...verb: string[]) => (await cli(['item', ...verb, '--help'])).stdout;
    const create = await help('create');
    for (const flag of [
      '--autostart',
      '--base-branch',
      '--implements',
      '--auto-gate',
      '--no-auto-gate',
      '--skip-nodes',
      '--node-override',
      '--policy',
      '--budget',
      '--json',
    ])
      expect(create).toContain(flag);
    expect(await help('approve')).toMatch(/--gate[\s\S]*--digest[\s\S]*--json/);
    expect(await help('reject')).toMatch(/--note[\s\S]*--gate[\s\S]*--node[\s\S]*--json/);
    expect(await help('raise-budget')).toContain('--usd <usd|none>');
    const choices = (text: string) => /\(choices: ([^)]*)\)/.exec(text.replace(/\s+/g, ' '))?.[1];
    expect(choices(await help('review'))).toBe('"comment", "approve", "request-changes"');
    expect(choices(await help('reply'))).toBe('"fixed", "answered", "should_fix"');
    expect(choices(await help('comment'))).toBe('"old", "new"');
    expect(await help('comment')).toMatch(/"must-fix",\s+"question",\s+"nit"/);
    for (const verb of ['progress', 'reply', 'mr-label']) expect(await help(verb)).toContain('worker:');
  });
});
