import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, fileItem, post, until } from './helpers/engine.js';
import { closeClocked, clockedSetup, type ClockedJig } from './helpers/engine-clock.js';
import { eventually } from './helpers/eventually.js';
import { call } from './helpers/mcp.js';
import { cleanupAll, http } from './helpers/server.js';

/*
 * Permission asks on a running item (its task sleeps): the item's worker asks, through the MCP tool
 * Claude Code calls as its --permission-prompt-tool; a person allows or denies from the API; an ask
 * nobody answers expires as a denial at its time (the server's clock, moved here).
 */
const CHAIN = `
nodes:
  - id: work
    kind: exec
    tasks:
      - id: sleep
        kind: subprocess
        run: 'sleep 30'
`;

let jig: ClockedJig;
let repo: string;
let id: string;
const asWorker = (item: string) => ({ 'x-jig-work-item': item });

async function mcpAs(item: string): Promise<Client> {
  const client = new Client({ name: 'jig-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${jig.url}/mcp`), {
      requestInit: { headers: asWorker(item) },
    }),
  );
  return client;
}

const pending = (): Promise<any[]> =>
  eventually(
    async () => {
      const asks = (await http(`${jig.url}/api/permission-asks?state=pending`)).json.asks;
      return asks.length > 0 && asks;
    },
    { what: 'a pending permission ask' },
  );

beforeAll(async () => {
  ({ jig, repo } = await clockedSetup({ slow: CHAIN }));
  id = (await fileItem(jig, repo, 'slow')).id;
  await until(jig, id, (i) => i.status === 'running');
});
afterAll(async () => {
  await post(jig, `/api/work-items/${id}/cancel`, { reason: 'done testing' });
  await closeClocked();
  await cleanupAll();
});

describe('permission asks', () => {
  it('only the item worker asks; a person allows through the API and the waiting tool answers allow', async () => {
    const body = { tool_name: 'Bash', input: { command: 'npm publish' } };
    const person = await post(jig, `/api/work-items/${id}/permission-asks`, body);
    expect(person.status).toBe(403);
    expect(person.json).toEqual({
      code: 'ask_not_worker',
      detail: `only a worker of work item ${id} asks for a permission (its client sends x-jig-work-item)`,
    });

    const worker = await mcpAs(id);
    try {
      const answer = call(worker, 'permission_request', {
        tool_name: 'Bash',
        input: { command: 'npm publish' },
      });
      const [ask] = await pending();
      expect(ask).toMatchObject({
        work_item_id: id,
        tool_name: 'Bash',
        input: { command: 'npm publish' },
        state: 'pending',
        decided_at: null,
      });
      const self = await http(`${jig.url}/api/work-items/${id}/permission-asks/${ask.id}/answer`, {
        method: 'POST',
        body: { decision: 'allow' },
        headers: asWorker(id),
      });
      expect(self.status).toBe(403);
      expect(self.json.code).toBe('worker_refused');
      const allowed = await post(jig, `/api/work-items/${id}/permission-asks/${ask.id}/answer`, {
        decision: 'allow',
      });
      expect(allowed.status, allowed.text).toBe(200);
      expect(allowed.json).toMatchObject({ state: 'allowed', note: null });
      const r = await answer;
      expect(r.isError, r.text).toBe(false);
      expect(JSON.parse(r.text)).toEqual({ behavior: 'allow', updatedInput: { command: 'npm publish' } });
      const again = await post(jig, `/api/work-items/${id}/permission-asks/${ask.id}/answer`, {
        decision: 'deny',
      });
      expect(again.status).toBe(409);
      expect(again.json).toEqual({
        code: 'ask_decided',
        detail: `permission ask ${ask.id} is already allowed`,
      });
    } finally {
      await worker.close();
    }
  });

  it('a denial carries the note to the agent; an ask nobody answers expires as a denial', async () => {
    const worker = await mcpAs(id);
    try {
      const denied = call(worker, 'permission_request', {
        tool_name: 'WebFetch',
        input: { url: 'https://x.test' },
      });
      const [ask] = await pending();
      await post(jig, `/api/work-items/${id}/permission-asks/${ask.id}/answer`, {
        decision: 'deny',
        note: 'No network from this task.',
      });
      expect(JSON.parse((await denied).text)).toEqual({
        behavior: 'deny',
        message: `Jig permission ask ${ask.id} for WebFetch: a person denied it: No network from this task.`,
      });

      const unanswered = call(worker, 'permission_request', {
        tool_name: 'Bash',
        input: { command: 'rm -rf x' },
      });
      const [late] = await pending();
      await jig.clock.advance(601_000);
      expect(JSON.parse((await unanswered).text)).toEqual({
        behavior: 'deny',
        message: `Jig permission ask ${late.id} for Bash: nobody answered within 10 minutes, so it is denied`,
      });
      const listed = (await http(`${jig.url}/api/work-items/${id}/permission-asks`)).json.asks;
      expect(listed.map((a: any) => [a.tool_name, a.state])).toEqual([
        ['Bash', 'allowed'],
        ['WebFetch', 'denied'],
        ['Bash', 'expired'],
      ]);
      const decisions = (await events(jig, id)).filter((e) => e.type === 'permission_decision');
      expect(decisions.map((e) => [e.by, e.payload.decision, e.payload.expired])).toEqual([
        ['human', 'allow', false],
        ['human', 'deny', false],
        ['jig', 'deny', true],
      ]);
      const none = await http(`${jig.url}/api/work-items/${id}/permission-asks/pnope`);
      expect(none.status).toBe(404);
    } finally {
      await worker.close();
    }
  });
});
