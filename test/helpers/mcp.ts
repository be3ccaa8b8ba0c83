import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'vitest';
import { eventually } from './eventually.js';

/** A chain that needs no agent CLI: a command commits, a gate waits for a person, a command ends it. */
export const GATED = `
description: commit, a gate, finish
nodes:
  - id: build
    kind: exec
    tasks:
      - id: touch
        kind: subprocess
        run: echo built >> out.txt && git add out.txt && git commit -qm built
  - id: review
    kind: gate
    message: Look at out.txt
  - id: finish
    kind: exec
    tasks:
      - id: last
        kind: subprocess
        run: echo finished
`;

/** Every tool of kraft-notes §6 (31), and `unblock_work_item`, in the order the server lists them. */
export const TOOL_NAMES = [
  'list_work_items',
  'get_work_item',
  'get_gate_artifact',
  'search',
  'list_threads',
  'compare_changes',
  'create_work_item',
  'ensure_repo',
  'set_chain',
  'set_attachments',
  'set_agent_overrides',
  'set_node_overrides',
  'set_work_item_policy',
  'approve_gate',
  'reject_gate',
  'pause_work_item',
  'resume_work_item',
  'unblock_work_item',
  'retry_work_item',
  'raise_budget',
  'skip_work_item',
  'complete_work_item',
  'cancel_work_item',
  'escalate_work_item',
  'add_review_comment',
  'resolve_thread',
  'reopen_thread',
  'submit_review',
  'report_progress',
  'reply_to_thread',
  'set_mr_labels',
  'permission_request',
];

export interface ToolAnswer {
  isError: boolean;
  text: string;
  data: any;
}

/** Calls a tool and answers its error flag, its text and its structured output. */
export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<ToolAnswer> {
  const r: any = await client.callTool({ name, arguments: args });
  const text = (r.content ?? []).map((c: any) => (c.type === 'text' ? c.text : '')).join('');
  return { isError: r.isError === true, text, data: r.structuredContent };
}

export async function ok(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const r = await call(client, name, args);
  expect(r.isError, `${name}: ${r.text}`).toBe(false);
  return r.data;
}

/** Polls get_work_item until `done` holds (bounded by count). */
export const untilTool = (client: Client, id: string, done: (item: any) => boolean): Promise<any> =>
  eventually(
    async () => {
      const item = await ok(client, 'get_work_item', { work_item_id: id });
      if (!done(item)) throw new Error(`the item is ${JSON.stringify(item)}`);
      return item;
    },
    { what: `item ${id} to reach the state` },
  );

/**
 * What both transports must do: list the tools, file an item paused, resume it to its gate, refuse
 * a worker's approval of its own item, approve as a person, and answer API errors as tool errors.
 * `asWorker(id)` connects a second client as the worker of that item.
 */
export async function scenario(
  client: Client,
  repo: string,
  asWorker: (id: string) => Promise<Client>,
): Promise<string> {
  const listed = await client.listTools();
  expect(listed.tools.map((t) => t.name)).toEqual(TOOL_NAMES);
  expect(listed.tools.map((t) => t.name)).not.toContain('abandon_work_item');
  const approve = listed.tools.find((t) => t.name === 'approve_gate')!;
  expect(approve.description).toMatch(/ask the person/);
  expect(approve.inputSchema.properties).toHaveProperty('work_item_id');
  const create = listed.tools.find((t) => t.name === 'create_work_item')!;
  expect(create.inputSchema.required).toEqual(['title']);

  const filed = await ok(client, 'create_work_item', { title: 'MCP under test', repo, chain: 'gated' });
  expect(filed).toMatchObject({ title: 'MCP under test', status: 'paused', chain: 'gated', repo });
  const id: string = filed.id;

  const resumed = await ok(client, 'resume_work_item', { work_item_id: id });
  expect(['running', 'queued']).toContain(resumed.status);
  const atGate = await untilTool(client, id, (i) => i.stop?.kind === 'gate');
  expect(atGate.current_node).toBe('review');

  const worker = await asWorker(id);
  try {
    const refused = await call(worker, 'approve_gate', { work_item_id: id });
    expect(refused.isError).toBe(true);
    expect(refused.text).toBe(
      `approve_gate is refused: a worker may not use it on its own work item (${id}); ask a person to do it`,
    );
    // A worker reads its own item without naming it.
    expect((await ok(worker, 'get_work_item')).id).toBe(id);
  } finally {
    await worker.close();
  }
  expect((await ok(client, 'get_work_item', { work_item_id: id })).stop?.kind).toBe('gate');

  // The item shows its gate request; a decision naming another request is refused (issue 40).
  expect(typeof atGate.gate_request).toBe('number');
  const stale = await call(client, 'approve_gate', { work_item_id: id, request: atGate.gate_request + 1 });
  expect(stale.isError).toBe(true);
  expect(stale.text).toMatch(/^gate review is not waiting for a decision .*\(HTTP 409, gate_not_waiting\)$/);
  const approved = await ok(client, 'approve_gate', { work_item_id: id });
  expect(approved.id).toBe(id);
  // The same decision on the same request again answers the item as it is.
  const again = await ok(client, 'approve_gate', {
    work_item_id: id,
    gate: 'review',
    request: atGate.gate_request,
  });
  expect(again.id).toBe(id);
  const done = await untilTool(client, id, (i) => i.status === 'completed');
  expect(done.display_status).toBe('done');

  // An item filed after another, started blocked, and unblocked (issue 46).
  const first = await ok(client, 'create_work_item', { title: 'MCP first', repo, chain: 'gated' });
  const second = await ok(client, 'create_work_item', {
    title: 'MCP second',
    repo,
    chain: 'gated',
    after: [first.id],
  });
  const blocked = await ok(client, 'resume_work_item', { work_item_id: second.id });
  expect([blocked.status, blocked.waiting_on]).toEqual([
    'blocked',
    [{ id: first.id, title: 'MCP first', status: 'paused' }],
  ]);
  const unblocked = await ok(client, 'unblock_work_item', { work_item_id: second.id });
  expect(unblocked).toMatchObject({ id: second.id, dropped: [first.id], waiting_on: [] });
  for (const x of [first.id, second.id])
    await ok(client, 'cancel_work_item', { work_item_id: x, reason: 'done with it' });

  const badTitle = await call(client, 'create_work_item', { title: 'two\nlines', repo, chain: 'gated' });
  expect(badTitle.isError).toBe(true);
  expect(badTitle.text).toMatch(/\(HTTP 422, invalid_title\)$/);

  expect(await call(client, 'get_work_item', { work_item_id: 'zzzzzzzz' })).toMatchObject({
    isError: true,
    text: 'no work item zzzzzzzz (HTTP 404, item_not_found)',
  });
  // Search answers from the index: the library's components are in it from the start.
  const search = await call(client, 'search', { q: 'prompt', limit: 3 });
  expect(search.isError).toBe(false);
  expect(JSON.parse(search.text).results).toHaveLength(3);
  const noItem = await call(client, 'pause_work_item');
  expect(noItem.isError).toBe(true);
  expect(noItem.text).toMatch(/^pause_work_item needs work_item_id/);

  const page = await ok(client, 'list_work_items', { status: 'completed' });
  expect(page.items.map((i: any) => i.id)).toContain(id);
  return id;
}
