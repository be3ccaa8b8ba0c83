import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestContext } from './http.js';
import { buildMcpServer } from './server.js';

/*
 * What a client learns of the tools before calling one: each tool's annotations, stated truthfully
 * (the protocol reads a tool that says nothing as destructive and open-world), and the capabilities
 * the server advertises. Nothing here calls Jig's API.
 */

const R = 'read-only';
const ADD = 'writes';
const REPLACES = 'replaces or ends';
type Effect = typeof R | typeof ADD | typeof REPLACES;

/** [effect, idempotent, reaches past Jig]: written from each tool's route, not from the code. */
const expected: Record<string, [Effect, boolean, boolean]> = {
  list_work_items: [R, true, false],
  get_work_item: [R, true, false],
  get_gate_artifact: [R, true, false],
  search: [R, true, false],
  list_threads: [R, true, false],
  compare_changes: [R, true, false],
  create_work_item: [ADD, false, false],
  ensure_repo: [ADD, true, false],
  set_chain: [REPLACES, true, false],
  set_attachments: [REPLACES, true, false],
  set_agent_overrides: [REPLACES, true, false],
  set_node_overrides: [REPLACES, true, false],
  set_work_item_policy: [REPLACES, true, false],
  approve_gate: [ADD, false, false],
  reject_gate: [ADD, false, false],
  pause_work_item: [ADD, true, false],
  resume_work_item: [ADD, true, false],
  unblock_work_item: [ADD, true, false],
  retry_work_item: [ADD, false, false],
  raise_budget: [ADD, true, false],
  skip_work_item: [REPLACES, false, false],
  complete_work_item: [REPLACES, true, true],
  cancel_work_item: [REPLACES, true, false],
  escalate_work_item: [ADD, false, false],
  add_review_comment: [ADD, false, false],
  resolve_thread: [ADD, true, false],
  reopen_thread: [ADD, true, false],
  submit_review: [ADD, false, false],
  report_progress: [ADD, false, false],
  reply_to_thread: [ADD, false, false],
  set_mr_labels: [REPLACES, true, true],
  permission_request: [ADD, false, false],
};

let client: Client;
beforeAll(async () => {
  const [a, b] = InMemoryTransport.createLinkedPair();
  const server = buildMcpServer(requestContext({}, { url: 'http://127.0.0.1:9', token: null }), '0.0.0');
  await server.connect(a);
  client = new Client({ name: 'test', version: '0.0.0' });
  await client.connect(b);
});
afterAll(() => client.close());

describe('the MCP server as a client sees it', () => {
  it('states every annotation of every tool, as the table says', async () => {
    const { tools } = await client.listTools();
    const seen = Object.fromEntries(
      tools.map((t) => {
        const a = t.annotations ?? {};
        const effect = a.readOnlyHint ? R : a.destructiveHint ? REPLACES : ADD;
        return [t.name, [effect, a.idempotentHint, a.openWorldHint]];
      }),
    );
    expect(seen).toEqual(expected);
    // Every hint is stated, none left to the protocol's defaults; the title repeats the tool's.
    for (const t of tools)
      expect(Object.keys(t.annotations ?? {}).sort(), t.name).toEqual([
        'destructiveHint',
        'idempotentHint',
        'openWorldHint',
        'readOnlyHint',
        'title',
      ]);
    const search = tools.find((t) => t.name === 'search');
    expect(search?.annotations).toEqual({
      title: search?.title,
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
  });

  it('advertises tools without listChanged: the list never changes and /mcp could not say so', () => {
    expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: false } });
  });
});
