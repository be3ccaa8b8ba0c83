import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { events, fileItem, until } from '../helpers/engine.js';
import { eventually } from '../helpers/eventually.js';
import { http } from '../helpers/server.js';
import { resultCmd } from './jig-env.js';
import {
  closeScenarios,
  ended,
  explain,
  missing,
  setup,
  TEST_TIMEOUT,
  title,
  TRIES,
} from './jig-scenarios-setup.js';

/*
 * The real Codex CLI launched by Jig under a task policy it has no flags for: Jig installs
 * `jig admin permission-hook codex` as its PreToolUse hook (trusted through hooks.state, no bypass
 * flag), and every shell call asks Jig's permission gate. This pins the hook's trust hash, its
 * input shape and its output shape against the real CLI.
 */

const chain = (policy: string) => `
nodes:
  - id: build
    kind: exec
    tasks:
      - id: implement
        kind: agent
        harness: codex
        model: gpt-5-codex
        prompt: Write asked.txt.
        policy:
${policy}
`;

/** The pending ask, or null once the item has ended without one. */
const pendingAsk = (url: string, id: string): Promise<any> =>
  eventually(
    async () => {
      const ask = (await http(`${url}/api/permission-asks?state=pending`)).json.asks[0];
      if (ask) return ask;
      return ended((await http(`${url}/api/work-items/${id}`)).json) ? null : undefined;
    },
    { what: `a permission ask of ${id}`, tries: TRIES },
  );

describe.skipIf(missing('codex') !== '')(
  title('Jig gates Codex tool calls through its hook', 'codex'),
  () => {
    afterAll(closeScenarios);

    it(
      "a person's item, only Read allowed: the shell call waits for a person; allowed, it runs and the item completes",
      { timeout: TEST_TIMEOUT },
      async () => {
        const r = await setup(
          [{ bash: `echo asked > asked.txt && ${resultCmd({ status: 'done' })}` }, { say: 'Done.' }],
          { asking: chain('          allowed_tools: [Read]') },
        );
        const item = await fileItem(r.jig, r.repo, 'asking');
        const ask = await pendingAsk(r.jig.url, item.id);
        expect(ask, await explain(r.jig, item.id, r.mock)).not.toBeNull();
        expect(ask).toMatchObject({ work_item_id: item.id, tool_name: 'Bash', state: 'pending' });
        expect(String(ask.input.command)).toContain('echo asked > asked.txt');
        const allowed = await http(
          `${r.jig.url}/api/work-items/${item.id}/permission-asks/${ask.id}/answer`,
          {
            method: 'POST',
            body: { decision: 'allow' },
          },
        );
        expect(allowed.status).toBe(200);
        const done = await until(r.jig, item.id, ended, TRIES);
        expect(done.status, await explain(r.jig, item.id, r.mock)).toBe('completed');
        const evs = await events(r.jig, item.id);
        const wt = evs.find((e) => e.type === 'worktree_prepared').payload.path;
        expect(readFileSync(join(wt, 'asked.txt'), 'utf8')).toBe('asked\n');
        expect(evs.filter((e) => e.type === 'permission_decision').map((e) => [e.by, e.payload])).toEqual([
          ['human', { ask: ask.id, tool_name: 'Bash', decision: 'allow', expired: false }],
        ]);
        // The launch carried the hook and web search switched off (policy leaves it out); no bypass.
        const argv = (await http(`${r.jig.url}/api/work-items/${item.id}/sessions`)).json.sessions[0].argv;
        expect(argv.join(' ')).toContain("admin' 'permission-hook' 'codex' '--fail-closed'");
        expect(argv).toContain('web_search="disabled"');
        expect(argv.join(' ')).not.toContain('bypass');
      },
    );

    it(
      'deny_tools names Bash: the hook blocks the call, nothing runs, and the decision is an event',
      { timeout: TEST_TIMEOUT },
      async () => {
        const r = await setup(
          [
            { bash: `echo denied > denied.txt && ${resultCmd({ status: 'done' })}` },
            { say: 'I could not run it.' },
          ],
          { denying: chain('          deny_tools: [Bash]') },
        );
        const item = await fileItem(r.jig, r.repo, 'denying');
        const done = await until(r.jig, item.id, ended, TRIES);
        const evs = await events(r.jig, item.id);
        const wt = evs.find((e) => e.type === 'worktree_prepared').payload.path;
        expect(existsSync(join(wt, 'denied.txt')), await explain(r.jig, item.id, r.mock)).toBe(false);
        expect(done.status).not.toBe('completed');
        expect(evs.filter((e) => e.type === 'permission_decision').map((e) => [e.by, e.payload])).toEqual([
          [
            'jig',
            {
              tool_name: 'Bash',
              decision: 'deny',
              expired: false,
              rule: 'deny_tools',
              task: 'build.main.implement',
            },
          ],
        ]);
        // Codex told the model why: the block reason reached the next request.
        expect(JSON.stringify(r.mock.main()[1]?.body ?? {})).toContain('policy denies Bash (deny_tools)');
      },
    );
  },
);
