import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentSetup, jsonLines } from './helpers/agents.js';
import { events, fileItem, until } from './helpers/engine.js';
import { git } from './helpers/git.js';
import { cleanupAll, jigBin, type JigProcess } from './helpers/server.js';

/*
 * A Cursor launch whose policy limits tools: Jig writes its preToolUse hook into the worktree's
 * .cursor/hooks.json (hidden from git), and the fake Cursor asks it before its shell call, as the
 * real one does. A policy that would have to deny a tool that never reaches the hook refuses the
 * launch instead.
 */
const chain = (policy: string) => `
nodes:
  - id: work
    kind: exec
    tasks:
      - id: author
        kind: agent
        harness: cursor
        prompt: Do the work.
        policy:
${policy}
`;
const WEB = `'WebFetch', 'WebSearch'`;

let jig: JigProcess;
let repo: string;
let hookLog: string;

beforeAll(async () => {
  hookLog = join(mkdtempSync(join(tmpdir(), 'jig-hook-')), 'hook.jsonl');
  ({ jig, repo } = await agentSetup(
    {
      listed: chain(`          allowed_tools: [Read, ${WEB}, 'Bash(echo ok:*)']`),
      denied: chain(`          deny_tools: [Bash]`),
      webless: chain(`          allowed_tools: [Read, 'Bash']`),
    },
    { env: { FAKE_AGENT_MODE: 'done', FAKE_AGENT_SHELL: 'echo ok > ok.txt', FAKE_AGENT_HOOK_LOG: hookLog } },
  ));
});
afterAll(cleanupAll);

const worktreeOf = async (id: string): Promise<string> =>
  (await events(jig, id)).find((e) => e.type === 'worktree_prepared').payload.path;

describe("Cursor's tool calls through Jig's hook", () => {
  it('a listed call runs; the hook file is Jig’s and git does not see it', async () => {
    const item = await fileItem(jig, repo, 'listed');
    const done = await until(jig, item.id, (i) => i.status !== 'running' && i.status !== 'queued');
    expect(done.status).toBe('completed');
    const wt = await worktreeOf(item.id);
    expect(readFileSync(join(wt, 'ok.txt'), 'utf8')).toBe('ok\n');
    expect(JSON.parse(readFileSync(join(wt, '.cursor', 'hooks.json'), 'utf8'))).toEqual({
      version: 1,
      hooks: {
        preToolUse: [
          {
            command: `'${process.execPath}' '${jigBin}' 'admin' 'permission-hook' 'cursor' '--fail-closed'`,
            timeout: 660,
          },
        ],
      },
    });
    expect(git(wt, 'status', '--porcelain', '--', '.cursor')).toBe('');
    expect(jsonLines(hookLog).at(-1)).toEqual({
      hook: {
        permission: 'allow',
        user_message: 'Jig: Bash is in allowed_tools',
        agent_message: 'Jig: Bash is in allowed_tools',
      },
      ran: true,
    });
  });

  it('a denied call does not run, and the decision is an event', async () => {
    const item = await fileItem(jig, repo, 'denied');
    await until(jig, item.id, (i) => i.status !== 'running' && i.status !== 'queued');
    const wt = await worktreeOf(item.id);
    expect(existsSync(join(wt, 'ok.txt'))).toBe(false);
    expect(jsonLines(hookLog).at(-1)).toMatchObject({ hook: { permission: 'deny' }, ran: false });
    const decided = (await events(jig, item.id)).filter((e) => e.type === 'permission_decision');
    expect(decided.map((e) => [e.by, e.payload])).toEqual([
      [
        'jig',
        { tool_name: 'Bash', decision: 'deny', expired: false, rule: 'deny_tools', task: 'work.main.author' },
      ],
    ]);
  });

  it('a policy that leaves out a tool the hook never sees refuses the launch, saying so', async () => {
    const item = await fileItem(jig, repo, 'webless');
    const stopped = await until(jig, item.id, (i) => i.status !== 'running' && i.status !== 'queued');
    expect(stopped.status).toBe('stopped');
    expect(stopped.stop.reason).toContain(
      'cursor: WebFetch never reaches its hook, so a policy that denies it cannot be enforced; allow WebFetch or pick another harness',
    );
  });
});
