import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { getItemDraft } from '../src/contract/routes/work-items/draft.js';
import { ApiError, JigClient } from '../src/client/http.js';
import { launchEnv } from '../src/runtime/workers/task-env.js';
import type { ItemRecord } from '../src/store/work-items.js';
import { clockedSetup, closeClocked, type ClockedJig } from './helpers/engine-clock.js';
import { events, fileItem, post, until } from './helpers/engine.js';
import { cleanupAll, http, repoRoot, tempHome } from './helpers/server.js';
import { holdUntil } from './helpers/hold.js';
import { eventually } from './helpers/eventually.js';

/*
 * Item drafts end to end (spec drafts.md "Item drafts", issue 17), on in-process servers
 * (helpers/engine-clock.ts) whose tasks are real child processes. The chain `work` holds its first
 * node until the test writes a release file for the item, so a draft can be put and applied while
 * the item runs that node.
 */

afterEach(async () => {
  try {
    await closeClocked();
  } finally {
    await cleanupAll();
  }
});

const work = `
description: holds, then finishes in two steps
nodes:
  - id: hold
    kind: exec
    tasks:
      - id: wait
        kind: subprocess
        run: '${holdUntil('"$HOLD_DIR/$JIG_WORK_ITEM_ID"')}'
  - id: finish
    kind: exec
    steps:
      - id: first
        tasks:
          - id: one
            kind: subprocess
            run: echo one
      - id: second
        tasks:
          - id: two
            kind: subprocess
            run: echo two
`;

/** One agent node, to give the instance a history of what a node `brief` costs. */
const briefed = `
nodes:
  - id: brief
    kind: exec
    tasks:
      - id: w
        extends: writer
`;

/** The seeded library with a subprocess task and an agent task of the tests' own. */
function library(): string {
  const doc = parseDocument(readFileSync(join(repoRoot, 'defaults', 'config', 'library.yaml'), 'utf8'));
  doc.setIn(['tasks', 'marker'], doc.createNode({ kind: 'subprocess', run: 'echo added' }));
  doc.setIn(['tasks', 'writer'], doc.createNode({ kind: 'agent', prompt: 'Write a short brief.' }));
  return doc.toString();
}

async function setup(): Promise<{ jig: ClockedJig; repo: string; release: (id: string) => void }> {
  const home = tempHome();
  const holds = join(home, 'holds');
  mkdirSync(join(home, 'config'), { recursive: true });
  mkdirSync(holds);
  writeFileSync(join(home, 'config', 'library.yaml'), library());
  const { jig, repo } = await clockedSetup(
    { work, briefed },
    { home, agents: true, env: { HOLD_DIR: holds, FAKE_AGENT_MODE: 'done' } },
  );
  return { jig, repo, release: (id) => writeFileSync(join(holds, id), '') };
}

const draftUrl = (jig: ClockedJig, id: string) => `${jig.url}/api/work-items/${id}/draft`;
const put = (jig: ClockedJig, id: string, ops: unknown[], headers?: Record<string, string>) =>
  http(draftUrl(jig, id), { method: 'PUT', body: { ops }, ...(headers ? { headers } : {}) });
const apply = (jig: ClockedJig, id: string) => post(jig, `/api/work-items/${id}/draft/apply`);

/**
 * An item of `work` running its `hold` node, its task started: nothing more is recorded of it
 * until the release. (The task's `worker_session_started` is written once its pid is known, a
 * moment after the node shows running: a test that took the item's last seq in between saw it move.)
 */
async function holding(jig: ClockedJig, repo: string): Promise<any> {
  const item = await fileItem(jig, repo, 'work');
  await until(jig, item.id, (i) => i.current_node === 'hold' && i.status === 'running');
  await eventually(
    async () =>
      (await events(jig, item.id)).some((e) => e.type === 'worker_session_started' && e.node === 'hold') ||
      undefined,
    { what: `item ${item.id}'s hold task to start` },
  );
  return item;
}

const WORK_NODES = ['hold', 'finish'];
const nodeIds = (body: any) => body.nodes.map((n: { id: string }) => n.id);
const typesAt = (ev: any[]) => ev.map((e) => `${e.type}${e.node ? `@${e.node}` : ''}`);

describe('item drafts on a running item', () => {
  it('an add_node after the current node is applied at the boundary and runs; the draft is gone', async () => {
    const { jig, repo, release } = await setup();
    const item = await holding(jig, repo);

    const ops = [
      { op: 'add_node', after: 'hold', node: { id: 'extra', tasks: [{ id: 'mark', extends: 'marker' }] } },
    ];
    const stored = await put(jig, item.id, ops);
    expect(stored.status, stored.text).toBe(200);
    expect(stored.json.ops).toEqual([{ ...ops[0], passed: false }]);
    expect(stored.json.problems).toEqual([]);
    expect(nodeIds(stored.json)).toEqual(['hold', 'extra', 'finish']);
    expect(stored.json.nodes[1]).toMatchObject({
      id: 'extra',
      kind: 'exec',
      path: 'extra',
      steps: [
        {
          id: 'main',
          path: 'extra.main',
          tasks: [{ id: 'mark', kind: 'subprocess', path: 'extra.main.mark' }],
        },
      ],
    });
    expect(stored.json.checks).toEqual({
      budget: { spent_usd: 0, cap_usd: 10 },
      added: [{ op: 0, node: 'extra', harnesses: [], estimate_usd: null, estimate_runs: null }],
    });

    const applied = await apply(jig, item.id);
    expect(applied.status, applied.text).toBe(200);
    expect(applied.json).toMatchObject({ ops: [], problems: [], base_seq: null, updated_at: null });
    expect(nodeIds(applied.json)).toEqual(['hold', 'extra', 'finish']);
    const after = await http(draftUrl(jig, item.id));
    expect(after.json.ops).toEqual([]);
    expect(nodeIds(after.json)).toEqual(['hold', 'extra', 'finish']);
    const revised = (await events(jig, item.id)).find((e) => e.type === 'chain_revised');
    expect(revised).toMatchObject({
      node: 'hold',
      by: 'human',
      payload: { source: 'draft', added: ['extra'], removed: [], overridden: [] },
    });

    // The running node finishes as it started; the walk then takes the revised chain.
    release(item.id);
    const done = await until(jig, item.id, (i) => i.status !== 'running' && i.status !== 'queued');
    expect(done.status, JSON.stringify(done)).toBe('completed');
    const seen = typesAt(await events(jig, item.id)).filter((t) => /^(node_|chain_revised)/.test(t));
    expect(seen).toEqual([
      'node_started@hold',
      'chain_revised@hold',
      'node_completed@hold',
      'node_started@extra',
      'node_completed@extra',
      'node_started@finish',
      'node_completed@finish',
    ]);
    const tasks = (await events(jig, item.id))
      .filter((e) => e.type === 'worker_session_started')
      .map((e) => e.payload.task);
    expect(tasks).toEqual(['hold.main.wait', 'extra.main.mark', 'finish.first.one', 'finish.second.two']);
  });

  it('a passed op answers 409 with its index and writes nothing; the draft is kept', async () => {
    const { jig, repo, release } = await setup();
    const item = await holding(jig, repo);
    const ops = [
      { op: 'add_node', after: 'hold', node: { id: 'extra', tasks: [{ id: 'mark', extends: 'marker' }] } },
      { op: 'remove_node', node: 'hold' },
      { op: 'skip', path: 'hold.main.wait' },
    ];
    const stored = await put(jig, item.id, ops);
    expect(stored.status, stored.text).toBe(200);
    expect(stored.json.ops.map((o: any) => o.passed)).toEqual([false, true, true]);
    expect(stored.json.problems).toEqual([]);

    const refused = await apply(jig, item.id);
    expect(refused.status).toBe(409);
    expect(refused.json).toEqual({
      code: 'item_draft_passed',
      detail:
        'the item has gone past ops 1, 2: nothing was applied; drop them or move them after the current node (hold)',
      passed: [1, 2],
    });
    const kept = await http(draftUrl(jig, item.id));
    expect(kept.json.ops).toHaveLength(3);
    expect(kept.json.base_seq).toBe(stored.json.base_seq);
    expect((await events(jig, item.id)).map((e) => e.type)).not.toContain('chain_revised');

    release(item.id);
    const done = await until(jig, item.id, (i) => i.status !== 'running' && i.status !== 'queued');
    expect(done.status).toBe('completed');
    expect(typesAt(await events(jig, item.id))).not.toContain('node_started@extra');
  });

  it('skips are scope_skipped events and revise no chain; the skipped step does not run', async () => {
    const { jig, repo, release } = await setup();
    const item = await holding(jig, repo);
    const stored = await put(jig, item.id, [{ op: 'skip', path: 'finish.second' }]);
    expect(stored.status, stored.text).toBe(200);
    expect(stored.json.checks.added).toEqual([]);
    const applied = await apply(jig, item.id);
    expect(applied.status, applied.text).toBe(200);
    expect(nodeIds(applied.json)).toEqual(WORK_NODES);
    const ev = await events(jig, item.id);
    expect(ev.map((e) => e.type)).not.toContain('chain_revised');
    expect(ev.filter((e) => e.type === 'scope_skipped')).toMatchObject([
      { node: 'finish', payload: { path: 'finish.second', node: 'finish', source: 'draft' } },
    ]);

    release(item.id);
    const done = await until(jig, item.id, (i) => i.status !== 'running' && i.status !== 'queued');
    expect(done.status).toBe('completed');
    const tasks = (await events(jig, item.id))
      .filter((e) => e.type === 'worker_session_started')
      .map((e) => e.payload.task);
    expect(tasks).toEqual(['hold.main.wait', 'finish.first.one']);
  });

  it('an estimate appears in checks.added once a node of that id has run on another item', async () => {
    const { jig, repo, release } = await setup();
    const item = await holding(jig, repo);
    const ops = [
      { op: 'add_node', after: 'hold', node: { id: 'brief', tasks: [{ id: 'w', extends: 'writer' }] } },
    ];
    const before = await put(jig, item.id, ops);
    expect(before.status, before.text).toBe(200);
    expect(before.json.checks.added).toEqual([
      { op: 0, node: 'brief', harnesses: ['claude'], estimate_usd: null, estimate_runs: null },
    ]);

    for (let i = 0; i < 2; i++) {
      const other = await fileItem(jig, repo, 'briefed');
      const ran = await until(jig, other.id, (x) => x.status !== 'running' && x.status !== 'queued');
      expect(ran.status, JSON.stringify(ran)).toBe('completed');
      expect(ran.spent_usd).toBeGreaterThan(0);
    }
    const spent = (await http(`${jig.url}/api/work-items?chain=briefed`)).json.items.map(
      (x: any) => x.spent_usd,
    );
    const average = (spent[0] + spent[1]) / 2;
    const now = await http(draftUrl(jig, item.id));
    expect(now.json.checks.added).toEqual([
      { op: 0, node: 'brief', harnesses: ['claude'], estimate_usd: average, estimate_runs: 2 },
    ]);
    expect(now.json.problems).toEqual([]);

    await http(draftUrl(jig, item.id), { method: 'DELETE' });
    release(item.id);
    await until(jig, item.id, (i) => i.status !== 'running' && i.status !== 'queued');
  });
});

describe('item draft lifecycle and refusals', () => {
  it('PUT stores, GET answers, a second PUT keeps base_seq, an empty PUT or DELETE drops it', async () => {
    const { jig, repo, release } = await setup();
    const item = await holding(jig, repo);
    const none = await http(draftUrl(jig, item.id));
    expect(none.status).toBe(200);
    expect(none.json).toMatchObject({ ops: [], problems: [], base_seq: null, updated_at: null });
    expect(nodeIds(none.json)).toEqual(WORK_NODES);
    expect(none.json.checks.added).toEqual([]);

    const seqBefore = Math.max(...(await events(jig, item.id)).map((e) => e.seq));
    const first = await put(jig, item.id, [{ op: 'skip', path: 'finish.first' }]);
    expect(first.status).toBe(200);
    expect(first.json.base_seq).toBe(seqBefore);
    expect(typeof first.json.updated_at).toBe('string');
    const renamed = await http(`${jig.url}/api/work-items/${item.id}`, {
      method: 'PATCH',
      body: { title: 'renamed' },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(Math.max(...(await events(jig, item.id)).map((e) => e.seq))).toBeGreaterThan(seqBefore);
    const second = await put(jig, item.id, [
      { op: 'skip', path: 'finish.first.one' },
      { op: 'override', path: 'finish', policy: { time_cap_minutes: 5 } },
    ]);
    expect(second.status).toBe(200);
    expect(second.json.base_seq).toBe(seqBefore);
    expect(second.json.ops).toEqual([
      { op: 'skip', path: 'finish.first.one', passed: false },
      { op: 'override', path: 'finish', policy: { time_cap_minutes: 5 }, passed: false },
    ]);
    expect(second.json.nodes[1].policy).toEqual({ time_cap_minutes: 5 });

    const emptied = await put(jig, item.id, []);
    expect(emptied.status).toBe(200);
    expect(emptied.json).toMatchObject({ ops: [], base_seq: null, updated_at: null });
    expect((await http(draftUrl(jig, item.id), { method: 'DELETE' })).status).toBe(404);

    await put(jig, item.id, [{ op: 'skip', path: 'finish.first' }]);
    const dropped = await http(draftUrl(jig, item.id), { method: 'DELETE' });
    expect(dropped.status).toBe(204);
    expect(dropped.text).toBe('');
    const gone = await http(draftUrl(jig, item.id), { method: 'DELETE' });
    expect(gone.status).toBe(404);
    expect(gone.json).toEqual({ code: 'item_draft_not_found', detail: `work item ${item.id} has no draft` });
    const noDraft = await apply(jig, item.id);
    expect(noDraft.status).toBe(404);
    expect(noDraft.json.code).toBe('item_draft_not_found');

    release(item.id);
    await until(jig, item.id, (i) => i.status === 'completed');
  });

  it('refuses an unknown item (404), a malformed op (422), a worker’s own item (403), an ended item (409)', async () => {
    const { jig, repo, release } = await setup();
    const unknown = await http(draftUrl(jig, 'wi_nope'));
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ code: 'item_not_found', detail: 'no work item wi_nope' });
    expect((await apply(jig, 'wi_nope')).status).toBe(404);

    const item = await holding(jig, repo);
    for (const bad of [
      { op: 'rename_node', node: 'hold' },
      { op: 'skip', path: 'finish.first', note: 'why' },
      { op: 'add_node', after: 'hold', node: { id: 'x', extends: 'marker', tasks: [] } },
      { op: 'override', path: 'Not A Path' },
    ]) {
      const r = await put(jig, item.id, [bad]);
      expect(r.status, JSON.stringify(bad)).toBe(422);
      expect(r.json.code).toBe('validation_failed');
    }
    expect((await http(draftUrl(jig, item.id))).json.ops).toEqual([]);

    const own = { 'x-jig-work-item': item.id };
    for (const r of [
      await http(draftUrl(jig, item.id), { headers: own }),
      await put(jig, item.id, [{ op: 'skip', path: 'finish.first' }], own),
      await http(draftUrl(jig, item.id), { method: 'DELETE', headers: own }),
      await http(`${draftUrl(jig, item.id)}/apply`, { method: 'POST', headers: own }),
    ]) {
      expect(r.status).toBe(403);
      expect(r.json).toEqual({
        code: 'item_draft_own_item',
        detail: `a worker may not read or change its own item's draft (work item ${item.id})`,
      });
    }
    // A worker of another item may.
    expect((await http(draftUrl(jig, item.id), { headers: { 'x-jig-work-item': 'wi_other' } })).status).toBe(
      200,
    );

    // The jig client says whose worker it is, except in an escalation turn.
    const saved = { id: process.env.JIG_WORK_ITEM_ID, esc: process.env.JIG_ESCALATION_TURN };
    try {
      process.env.JIG_WORK_ITEM_ID = item.id;
      delete process.env.JIG_ESCALATION_TURN;
      const client = new JigClient({ url: jig.url, token: null });
      const refused = await client.call(getItemDraft, { params: { id: item.id } }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ApiError);
      expect((refused as ApiError).is('item_draft_own_item')).toBe(true);
      process.env.JIG_ESCALATION_TURN = '1';
      const allowed = await client.call(getItemDraft, { params: { id: item.id } });
      expect(allowed.ops).toEqual([]);
    } finally {
      if (saved.id === undefined) delete process.env.JIG_WORK_ITEM_ID;
      else process.env.JIG_WORK_ITEM_ID = saved.id;
      if (saved.esc === undefined) delete process.env.JIG_ESCALATION_TURN;
      else process.env.JIG_ESCALATION_TURN = saved.esc;
    }

    const cancelled = await post(jig, `/api/work-items/${item.id}/cancel`, {});
    expect(cancelled.status, cancelled.text).toBe(200);
    release(item.id);
    for (const r of [
      await http(draftUrl(jig, item.id)),
      await put(jig, item.id, [{ op: 'skip', path: 'finish.first' }]),
      await http(draftUrl(jig, item.id), { method: 'DELETE' }),
      await apply(jig, item.id),
    ]) {
      expect(r.status).toBe(409);
      expect(r.json).toMatchObject({ code: 'item_wrong_status', status: 'cancelled' });
    }
  });

  it('an item with no materialized chain is 409 for GET, PUT and apply; a PUT keeps its ops for the start', async () => {
    const { jig, repo, release } = await setup();
    const item = await fileItem(jig, repo, 'work', false);
    const ops = [{ op: 'skip', path: 'finish.second' }];
    const r = await put(jig, item.id, ops);
    expect(r.status).toBe(409);
    expect(r.json).toEqual({
      code: 'item_draft_no_chain',
      detail: `work item ${item.id} has not started, so it has no chain of its own yet; the ops are stored and checked once it starts`,
      status: 'paused',
    });
    expect((await http(draftUrl(jig, item.id))).status).toBe(409);
    expect((await apply(jig, item.id)).status).toBe(409);

    const started = await post(jig, `/api/work-items/${item.id}/resume`);
    expect(started.status, started.text).toBe(200);
    await until(jig, item.id, (i) => i.current_node === 'hold');
    const kept = await http(draftUrl(jig, item.id));
    expect(kept.status).toBe(200);
    expect(kept.json.ops).toEqual([{ ...ops[0], passed: false }]);
    expect((await apply(jig, item.id)).status).toBe(200);
    release(item.id);
    await until(jig, item.id, (i) => i.status === 'completed');
  });

  it('an apply with a problem is 422 with every problem and writes nothing', async () => {
    const { jig, repo, release } = await setup();
    const item = await holding(jig, repo);
    const stored = await put(jig, item.id, [
      { op: 'add_node', after: 'hold', node: { id: 'extra', tasks: [{ id: 'mark', extends: 'marker' }] } },
      { op: 'remove_node', node: 'nowhere' },
      { op: 'override', path: 'finish.first.one', task_config: { steps: [] } },
    ]);
    expect(stored.status).toBe(200);
    const problems = [
      { op: 1, message: "no node `nowhere` in the item's chain" },
      {
        op: 2,
        message:
          'task_config.steps is not something an override may set: only model, effort, harness (no structural field)',
      },
    ];
    expect(stored.json.problems).toEqual(problems);
    // nodes carry the op that has no problem.
    expect(nodeIds(stored.json)).toEqual(['hold', 'extra', 'finish']);
    const refused = await apply(jig, item.id);
    expect(refused.status).toBe(422);
    expect(refused.json).toEqual({
      code: 'item_draft_problems',
      detail: "nothing was applied: op 1: no node `nowhere` in the item's chain (and 1 more)",
      problems,
    });
    expect(nodeIds((await http(draftUrl(jig, item.id))).json)).toEqual(['hold', 'extra', 'finish']);
    expect((await events(jig, item.id)).map((e) => e.type)).not.toContain('chain_revised');
    await http(draftUrl(jig, item.id), { method: 'DELETE' });
    release(item.id);
    await until(jig, item.id, (i) => i.status === 'completed');
  });

  it('an escalation turn is launched with JIG_ESCALATION_TURN=1, a task without it', () => {
    const rec = { id: 'wi_x' } as ItemRecord;
    const repo = { path: '/r' } as Parameters<typeof launchEnv>[1];
    expect(launchEnv(rec, repo, 1, true)).toMatchObject({
      JIG_WORK_ITEM_ID: 'wi_x',
      JIG_ESCALATION_TURN: '1',
    });
    expect(launchEnv(rec, repo, 1)).not.toHaveProperty('JIG_ESCALATION_TURN');
  });
});
