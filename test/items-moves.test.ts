import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git, makeRepo } from './helpers/git.js';
import { cleanupAll, http, runJig, startJig, type JigProcess } from './helpers/server.js';

let jig: JigProcess;
let repo: string;
const api = (method: string, path: string, body?: unknown) => http(`${jig.url}${path}`, { method, body });
async function newItem(extra: Record<string, unknown> = {}): Promise<any> {
  const r = await api('POST', '/api/work-items', { title: 'Item under test', repo, ...extra });
  expect(r.status).toBe(201);
  return r.json;
}
async function eventTypes(id: string): Promise<string[]> {
  return (await api('GET', `/api/work-items/${id}/events`)).json.events.map((e: { type: string }) => e.type);
}

beforeAll(async () => {
  jig = await startJig();
  repo = makeRepo();
  expect((await api('POST', '/api/repos', { path: repo, test_command: '' })).status).toBe(201);
});
afterAll(cleanupAll);

type Setup = 'paused' | 'cancelled' | 'completed' | 'abandoned' | 'archived';
async function itemIn(state: Setup): Promise<any> {
  const item = await newItem();
  const to: Record<Setup, string[]> = {
    paused: [],
    cancelled: ['cancel'],
    completed: ['complete'],
    abandoned: ['abandon'],
    archived: ['complete', 'archive'],
  };
  for (const m of to[state]) {
    const r = await api('POST', `/api/work-items/${item.id}/${m}`, { reason: 'setup' });
    expect(r.status, `${state} via ${m}`).toBe(200);
  }
  return (await api('GET', `/api/work-items/${item.id}`)).json;
}

// [from, move, expected status, resulting status or refusal detail, archived after]
const table: [Setup, string, number, string, boolean][] = [
  ['paused', 'cancel', 200, 'cancelled', false],
  ['paused', 'complete', 200, 'completed', false],
  ['paused', 'abandon', 200, 'abandoned', false],
  ['paused', 'archive', 409, 'the item is paused; only a completed or cancelled item can be archived', false],
  [
    'paused',
    'restore',
    409,
    'the item is paused; only an item that has ended can be restored (an archived one comes back under Done)',
    false,
  ],
  ['cancelled', 'cancel', 200, 'cancelled', false],
  [
    'cancelled',
    'complete',
    409,
    'the item is cancelled; only an item that has not ended can be completed',
    false,
  ],
  ['cancelled', 'abandon', 200, 'abandoned', false],
  [
    'completed',
    'abandon',
    409,
    'the item is completed; only an item that has not ended, or a cancelled one, can be abandoned',
    false,
  ],
  ['cancelled', 'archive', 200, 'cancelled', true],
  [
    'completed',
    'cancel',
    409,
    'the item is completed; only an item that has not ended can be cancelled',
    false,
  ],
  ['completed', 'complete', 200, 'completed', false],
  ['completed', 'archive', 200, 'completed', true],
  [
    'abandoned',
    'cancel',
    409,
    'the item is abandoned; only an item that has not ended can be cancelled',
    false,
  ],
  [
    'abandoned',
    'archive',
    409,
    'the item is abandoned; only a completed or cancelled item can be archived',
    false,
  ],
  ['abandoned', 'abandon', 200, 'abandoned', false],
  ['archived', 'restore', 200, 'completed', false],
  ['archived', 'archive', 200, 'completed', true],
  [
    'archived',
    'cancel',
    409,
    'the item is completed and archived; only an item that has not ended can be cancelled',
    true,
  ],
];

/** The statuses each move accepts, as a refusal lists them. */
const allowedFor: Record<string, string[]> = {
  cancel: ['paused', 'blocked', 'queued', 'running', 'stopped', 'waiting'],
  complete: ['paused', 'blocked', 'queued', 'running', 'stopped', 'waiting'],
  abandon: ['paused', 'blocked', 'queued', 'running', 'stopped', 'waiting', 'cancelled'],
  archive: ['completed', 'cancelled'],
  restore: ['completed', 'cancelled', 'abandoned'],
  pause: ['queued', 'running'],
};

describe('the state table', () => {
  for (const [from, move, status, result, archived] of table) {
    it(`${move} on a ${from} item answers ${status}`, async () => {
      const item = await itemIn(from);
      const before = await eventTypes(item.id);
      const r = await api('POST', `/api/work-items/${item.id}/${move}`, { reason: 'because' });
      expect(r.status).toBe(status);
      if (status === 409) {
        expect(r.json).toEqual({
          detail: result,
          code: 'item_wrong_status',
          status: item.status,
          allowed: allowedFor[move],
        });
        expect(await eventTypes(item.id)).toEqual(before);
      } else {
        expect(r.json.status).toBe(result);
        expect(r.json.archived).toBe(archived);
      }
      const now = (await api('GET', `/api/work-items/${item.id}`)).json;
      expect(now.archived).toBe(archived);
    });
  }

  it('records each move as one event with its reason, and a repeated move as none', async () => {
    const item = await newItem();
    await api('POST', `/api/work-items/${item.id}/cancel`, { reason: 'not needed' });
    await api('POST', `/api/work-items/${item.id}/cancel`, { reason: 'again' });
    await api('POST', `/api/work-items/${item.id}/archive`);
    await api('POST', `/api/work-items/${item.id}/restore`);
    const events = (await api('GET', `/api/work-items/${item.id}/events`)).json.events;
    expect(events.map((e: any) => [e.type, e.by, e.payload.reason ?? null])).toEqual([
      ['work_item_created', 'human', null],
      ['work_item_cancelled', 'human', 'not needed'],
      ['work_item_archived', 'human', null],
      ['work_item_restored', 'human', null],
    ]);
    const after = (await api('GET', `/api/work-items/${item.id}`)).json;
    expect(after).toMatchObject({
      status: 'cancelled',
      display_status: 'cancelled',
      archived: false,
      archived_at: null,
    });
    expect(after.ended_at).not.toBe(null);
  });

  it('abandon needs a reason', async () => {
    const item = await newItem();
    const r = await api('POST', `/api/work-items/${item.id}/abandon`);
    expect(r.status).toBe(422);
    expect(r.json).toEqual({
      detail: 'body.reason: say why the item is abandoned',
      code: 'validation_failed',
    });
  });

  it('answers 404 for an unknown item', async () => {
    const r = await api('POST', '/api/work-items/zzzzzzzz/cancel');
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ detail: 'no work item zzzzzzzz', code: 'item_not_found' });
  });
});

describe('worktrees and branches', () => {
  /** Gives the item a real branch and worktree, as the engine will when it first starts it. */
  function cutWorktree(item: { id: string; branch: string }): string {
    const wt = join(jig.home, 'run', 'worktrees', item.id);
    git(repo, 'worktree', 'add', '-q', '-b', item.branch, wt);
    const db = new Database(join(jig.home, 'run', 'jig.db'));
    db.prepare('UPDATE work_items SET worktree_path = ? WHERE id = ?').run(wt, item.id);
    db.close();
    return wt;
  }
  const branches = () => git(repo, 'branch', '--format=%(refname:short)').split('\n');

  it('cancel keeps both, archive then reclaims the worktree and keeps the branch', async () => {
    const item = await newItem();
    const wt = cutWorktree(item);
    const preview = (await api('GET', `/api/work-items/${item.id}/cancel-preview`)).json;
    expect(preview).toEqual({
      id: item.id,
      status: 'paused',
      allowed: true,
      detail: null,
      result_status: 'cancelled',
      keeps_worktree: true,
      keeps_branch: true,
      worktree_path: wt,
      branch: item.branch,
      branch_exists: true,
      sessions_to_stop: 0,
      dependents: [],
    });
    expect((await api('POST', `/api/work-items/${item.id}/cancel`)).status).toBe(200);
    expect(existsSync(wt)).toBe(true);
    expect(branches()).toContain(item.branch);
    const archived = await api('POST', `/api/work-items/${item.id}/archive`);
    expect(archived.status).toBe(200);
    expect(existsSync(wt)).toBe(false);
    expect(branches()).toContain(item.branch);
    const events = (await api('GET', `/api/work-items/${item.id}/events`)).json.events;
    expect(events.slice(-2).map((e: any) => [e.type, e.payload])).toEqual([
      ['work_item_archived', { from: 'cancelled' }],
      ['worktree_reclaimed', { worktree_removed: true }],
    ]);
  });

  it('abandon deletes the worktree and the branch', async () => {
    const item = await newItem();
    const wt = cutWorktree(item);
    const r = await api('POST', `/api/work-items/${item.id}/abandon`, { reason: 'wrong approach' });
    expect(r.status).toBe(200);
    expect(existsSync(wt)).toBe(false);
    expect(branches()).not.toContain(item.branch);
    const events = (await api('GET', `/api/work-items/${item.id}/events`)).json.events;
    expect(events.slice(-2).map((e: any) => [e.type, e.by, e.payload])).toEqual([
      ['work_item_abandoned', 'human', { from: 'paused', reason: 'wrong approach' }],
      ['worktree_reclaimed', 'jig', { worktree_removed: true, branch_deleted: true }],
    ]);
  });
});

describe('bulk, duplicate and patch', () => {
  it('bulk answers one result per item, as the single route would', async () => {
    const a = await newItem();
    const b = await itemIn('completed');
    const r = await api('POST', '/api/work-items/bulk', {
      action: 'cancel',
      ids: [a.id, b.id, 'zzzzzzzz'],
      reason: 'cleanup',
    });
    expect(r.status).toBe(200);
    expect(r.json.results.map((x: any) => [x.id, x.ok, x.status, x.code, x.item?.status ?? null])).toEqual([
      [a.id, true, 200, null, 'cancelled'],
      [b.id, false, 409, 'item_wrong_status', null],
      ['zzzzzzzz', false, 404, 'item_not_found', null],
    ]);
    const pause = await api('POST', '/api/work-items/bulk', { action: 'pause', ids: [(await newItem()).id] });
    expect(pause.json.results[0]).toMatchObject({ ok: true, status: 200 });
    expect((await api('POST', '/api/work-items/bulk', { action: 'explode', ids: [a.id] })).status).toBe(422);
  });

  it('duplicate files a fresh paused item with the same settings and attachments', async () => {
    const orig = await newItem({
      attachments: { plan: { text: 'the plan' } },
      budget_usd: 2,
      chain: 'quick-task',
    });
    await api('POST', `/api/work-items/${orig.id}/cancel`);
    const r = await api('POST', `/api/work-items/${orig.id}/duplicate`);
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({
      title: orig.title,
      status: 'paused',
      source: 'duplicate',
      chain: 'quick-task',
      budget_cap: { cap_usd: 2, key: 'item' },
    });
    expect(r.json.id).not.toBe(orig.id);
    expect((await http(`${jig.url}/api/work-items/${r.json.id}/attachments/plan`)).text).toBe('the plan');
    const created = (await api('GET', `/api/work-items/${r.json.id}/events`)).json.events[0];
    expect(created.payload.duplicate_of).toBe(orig.id);
  });

  it('patch changes fields, records one event each, and keeps the title rules', async () => {
    const item = await newItem();
    const r = await api('PATCH', `/api/work-items/${item.id}`, {
      title: 'Renamed',
      description: 'more',
      chain: 'quick-task',
      budget_usd: 3,
      policy_override: { 'implementation.time_cap_minutes': 30 },
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      title: 'Renamed',
      description: 'more',
      chain: 'quick-task',
      branch: item.branch,
      policy_override: { 'implementation.time_cap_minutes': 30 },
      budget_cap: { cap_usd: 3, key: 'item' },
    });
    expect(await eventTypes(item.id)).toEqual([
      'work_item_created',
      'title_changed',
      'description_changed',
      'chain_changed',
      'policy_override_changed',
      'budget_changed',
    ]);
    const bad = await api('PATCH', `/api/work-items/${item.id}`, { title: 'two\nlines' });
    expect(bad.status).toBe(422);
    expect(bad.json).toEqual({ detail: 'the title is one line', code: 'invalid_title', field: 'title' });
    const model = await api('PATCH', `/api/work-items/${item.id}`, {
      node_overrides: { spec: { model: 'two words' } },
    });
    expect(model.status).toBe(422);
    expect(model.json.detail).toBe('node_overrides.spec.model: "two words" is not a model id');
    const chain = await api('PATCH', `/api/work-items/${item.id}`, { chain: 'nope' });
    expect(chain.status).toBe(422);
    await api('POST', `/api/work-items/${item.id}/complete`);
    const ended = await api('PATCH', `/api/work-items/${item.id}`, { budget_usd: 9 });
    expect(ended.status).toBe(409);
    expect(ended.json.detail).toBe('the item is completed; only its title and description can change');
    expect((await api('PATCH', `/api/work-items/${item.id}`, { title: 'Still renamable' })).status).toBe(200);
  });
});

describe('GET /api/work-items', () => {
  it('filters by status, repo, chain and archive, and pages without skipping or repeating', async () => {
    const other = makeRepo();
    expect((await api('POST', '/api/repos', { path: other, test_command: '' })).status).toBe(201);
    const mine: string[] = [];
    for (let i = 0; i < 7; i++) {
      const r = await api('POST', '/api/work-items', {
        title: `Paged ${i}`,
        repo: other,
        chain: i % 2 ? 'quick-task' : 'default',
      });
      mine.push(r.json.id);
    }
    await api('POST', `/api/work-items/${mine[0]}/complete`);
    await api('POST', `/api/work-items/${mine[0]}/archive`);
    const q = (s: string) => api('GET', `/api/work-items?repo=${encodeURIComponent(other)}${s}`);
    expect((await q('')).json.total).toBe(6);
    expect((await q('&archived=true')).json.items.map((i: any) => i.id)).toEqual([mine[0]]);
    expect((await q('&archived=all')).json.total).toBe(7);
    expect((await q('&chain=quick-task')).json.total).toBe(3);
    expect((await q('&status=paused')).json.total).toBe(6);
    expect((await q('&status=completed&archived=all')).json.total).toBe(1);
    const bad = await q('&status=sleeping');
    expect(bad.status).toBe(422);
    expect(bad.json.detail).toMatch(/^query\.status: sleeping is not one of paused, /);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = (await q(`&archived=all&limit=3${cursor ? `&cursor=${cursor}` : ''}`)).json;
      expect(page.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.items.map((i: any) => i.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...mine].reverse());
  });
});

describe('GET /api/budget/today', () => {
  it('answers spend since local midnight against the daily cap', async () => {
    const r = await api('GET', '/api/budget/today');
    const midnight = new Date();
    midnight.setHours(0, 0, 0, 0);
    expect(r.json).toEqual({
      since: midnight.toISOString(),
      spent_usd: 0,
      cap_usd: 50,
      remaining_usd: 50,
      unpriced_sessions: 0,
    });
  });
});

describe('the CLI', () => {
  it('item create, view list/show, cancel, archive print one line and --json the API answer', async () => {
    const env = { JIG_HOME: jig.home };
    const created = await runJig(['item', 'create', 'From the CLI', '--repo', repo, '--json'], env);
    expect(created.code).toBe(0);
    const item = JSON.parse(created.stdout);
    expect(item).toMatchObject({ title: 'From the CLI', status: 'paused' });
    const line = await runJig(['item', 'create', 'Second', '--repo', repo, '--chain', 'quick-task'], env);
    expect(line.code).toBe(0);
    expect(line.stdout).toMatch(/^filed [a-z2-9]{8} "Second" on quick-task, paused\n$/);
    // A title with a line break names the flag the rest belongs in (issue 28).
    expect(await runJig(['item', 'create', 'First line\nthe rest', '--repo', repo], env)).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'jig: the title is one line; pass the first line as the title and the rest as --description TEXT\n',
    });
    const cancel = await runJig(['item', 'cancel', item.id, '--reason', 'test'], env);
    expect(cancel).toMatchObject({ code: 0, stdout: `cancelled ${item.id}\n` });
    const noYes = await runJig(['item', 'abandon', item.id, '--reason', 'x'], env);
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toContain('--yes');
    const show = await runJig(['view', 'show', item.id, '--json'], env);
    expect(JSON.parse(show.stdout).status).toBe('cancelled');
    const list = await runJig(['view', 'list', '--json', '--status', 'cancelled'], env);
    expect(JSON.parse(list.stdout).items.map((i: any) => i.id)).toContain(item.id);
    const events = await runJig(['view', 'events', item.id, '--json'], env);
    expect(JSON.parse(events.stdout).events.map((e: any) => e.type)).toEqual([
      'work_item_created',
      'work_item_cancelled',
    ]);
  });
});
