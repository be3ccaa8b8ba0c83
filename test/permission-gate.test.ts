import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, until } from './helpers/engine.js';
import { eventually } from './helpers/eventually.js';
import { makeRepo } from './helpers/git.js';
import { cleanupAll, http, runJig, startJig, tempHome, type JigProcess } from './helpers/server.js';

/*
 * The permission gate Codex's and Cursor's pre-tool hooks ask, driven through the real hook verb
 * (`jig admin permission-hook`, stdin in the CLI's shape, stdout its verdict) against a running
 * item whose frozen chain gives its task a tool policy.
 */
const CHAIN = `
nodes:
  - id: work
    kind: exec
    policy:
      allowed_tools: [Read, 'Bash(npm test:*)']
      deny_tools: [WebFetch]
      grants: [git-commit]
    tasks:
      - id: sleep
        kind: subprocess
        run: 'sleep 60'
`;
const TASK = 'work.main.sleep';

let jig: JigProcess;
let home: string;
let id: string;

const hook = (
  cli: 'codex' | 'cursor',
  call: unknown,
  env: Record<string, string> = {},
  flags: string[] = [],
) =>
  runJig(
    ['admin', 'permission-hook', cli, ...flags],
    { JIG_HOME: home, JIG_WORK_ITEM_ID: id, JIG_TASK_PATH: TASK, JIG_URL: '', ...env },
    typeof call === 'string' ? call : JSON.stringify(call),
  );
const bash = (command: string) => ({
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command },
  tool_use_id: 'call_1',
});
const codexSays = (decision: string, reason: string) => ({
  code: 0,
  stdout: `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: reason } })}\n`,
});

beforeAll(async () => {
  home = tempHome();
  mkdirSync(join(home, 'config', 'chains'), { recursive: true });
  writeFileSync(join(home, 'config', 'chains', 'hold.yaml'), CHAIN);
  jig = await startJig({ home });
  const repo = makeRepo();
  expect(
    (
      await http(`${jig.url}/api/repos`, {
        method: 'POST',
        body: { path: repo, test_command: '', setup_command: '' },
      })
    ).status,
  ).toBe(201);
  const item = await http(`${jig.url}/api/work-items`, {
    method: 'POST',
    body: { title: 'Hold', repo, chain: 'hold', start: true },
  });
  id = item.json.id;
  await until(jig, id, (i) => i.status === 'running');
});
afterAll(async () => {
  await http(`${jig.url}/api/work-items/${id}/cancel`, { method: 'POST', body: { reason: 'test over' } });
  await cleanupAll();
});

describe('the permission gate behind the pre-tool hooks', () => {
  it('answers in Codex’s shape: listed, granted, denied, and left to a person', async () => {
    expect(await hook('codex', bash('npm test -- --run'))).toMatchObject(
      codexSays('allow', 'Jig: Bash is in allowed_tools'),
    );
    expect(await hook('codex', bash('git commit -q -m "x"'))).toMatchObject(
      codexSays('allow', 'Jig: policy grants git-commit'),
    );
    expect(await hook('codex', { tool_name: 'WebFetch', tool_input: { url: 'http://x' } })).toMatchObject(
      codexSays('deny', 'Jig: policy denies WebFetch (deny_tools)'),
    );
    // apply_patch is Write and Edit to Jig; neither is listed.
    const asking = hook('codex', { tool_name: 'apply_patch', tool_input: { patch: '*** x' } });
    const ask = await eventually(
      async () => (await http(`${jig.url}/api/work-items/${id}/permission-asks?state=pending`)).json.asks[0],
      { what: 'a pending permission ask' },
    );
    expect(ask).toMatchObject({ tool_name: 'Write/Edit', input: { patch: '*** x' }, state: 'pending' });
    const denied = await http(`${jig.url}/api/work-items/${id}/permission-asks/${ask.id}/answer`, {
      method: 'POST',
      body: { decision: 'deny', note: 'not in this task' },
    });
    expect(denied.status).toBe(200);
    expect(await asking).toMatchObject(
      codexSays('deny', `Jig permission ask ${ask.id} for Write/Edit: a person denied it: not in this task`),
    );
    const decisions = (await events(jig, id)).filter((e) => e.type === 'permission_decision');
    expect(decisions.map((e) => [e.by, e.payload])).toEqual([
      ['jig', { tool_name: 'Bash', decision: 'allow', expired: false, rule: 'listed', task: TASK }],
      ['jig', { tool_name: 'Bash', decision: 'allow', expired: false, rule: 'grant', task: TASK }],
      ['jig', { tool_name: 'WebFetch', decision: 'deny', expired: false, rule: 'deny_tools', task: TASK }],
      [
        'human',
        { ask: ask.id, tool_name: 'Write/Edit', decision: 'deny', expired: false, note: 'not in this task' },
      ],
    ]);
  });

  it('answers in Cursor’s shape, its Shell tool being Bash', async () => {
    expect(await hook('cursor', { tool_name: 'Shell', tool_input: { command: 'npm test' } })).toEqual({
      code: 0,
      stdout: `${JSON.stringify({ permission: 'allow', user_message: 'Jig: Bash is in allowed_tools', agent_message: 'Jig: Bash is in allowed_tools' })}\n`,
      stderr: '',
    });
  });

  it('fails closed when told to, and has no opinion otherwise, when the gate cannot decide', async () => {
    const cases: [Record<string, string>, unknown, string][] = [
      [
        { JIG_TASK_PATH: 'work.main.nope' },
        bash('ls'),
        `task work.main.nope is not in this item's chain, so its policy cannot be resolved`,
      ],
      [{ JIG_TASK_PATH: '' }, bash('ls'), 'JIG_WORK_ITEM_ID and JIG_TASK_PATH are not both set'],
      [{}, 'not json', 'the hook input names no tool'],
    ];
    for (const [env, call, why] of cases) {
      expect(await hook('codex', call, env)).toEqual({ code: 0, stdout: '{}\n', stderr: '' });
      expect(await hook('codex', call, env, ['--fail-closed'])).toMatchObject(
        codexSays('deny', `Jig's permission gate could not decide (${why}); denied, as policy limits tools`),
      );
    }
    // A server that cannot be reached: the same.
    const away = await hook('codex', bash('ls'), { JIG_URL: 'http://127.0.0.1:9' }, ['--fail-closed']);
    expect(JSON.parse(away.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it('is the item’s worker’s only; a running item only', async () => {
    const body = { task: TASK, cli: 'codex', tool_name: 'Bash', input: { command: 'ls' } };
    const person = await http(`${jig.url}/api/work-items/${id}/permission-check`, { method: 'POST', body });
    expect(person.status).toBe(403);
    expect(person.json.code).toBe('ask_not_worker');
    const bad = await http(`${jig.url}/api/work-items/${id}/permission-check`, {
      method: 'POST',
      body: { ...body, cli: undefined },
      headers: { 'x-jig-work-item': id },
    });
    expect(bad.status).toBe(422);
    expect(bad.json.detail).toContain('cli');
    const other = await http(`${jig.url}/api/work-items/nope1234/permission-check`, {
      method: 'POST',
      body,
      headers: { 'x-jig-work-item': 'nope1234' },
    });
    expect(other.status).toBe(404);
    const paused = await http(`${jig.url}/api/work-items`, {
      method: 'POST',
      body: {
        title: 'Paused',
        repo: (await http(`${jig.url}/api/work-items/${id}`)).json.repo,
        chain: 'hold',
      },
    });
    const notRunning = await http(`${jig.url}/api/work-items/${paused.json.id}/permission-check`, {
      method: 'POST',
      body,
      headers: { 'x-jig-work-item': paused.json.id },
    });
    expect(notRunning.status).toBe(409);
    expect(notRunning.json.code).toBe('item_wrong_status');
  });
});
