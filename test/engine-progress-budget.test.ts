import { dbRun } from './helpers/test-store.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { engineSetup, events, fileItem, post, until } from './helpers/engine.js';
import { cleanupAll, http, tempHome } from './helpers/server.js';
import { cleanupButShared, shareServerPerFile } from './helpers/shared-home.js';

// The tests need nothing of a server but their chains, policy and repository: they share one.
shareServerPerFile();

// Each test's own servers go after it; the shared one after the file.
afterEach(cleanupButShared);
afterAll(cleanupAll);

const quick = `
nodes:
  - id: work
    kind: exec
    tasks:
      - id: ok
        kind: subprocess
        run: 'true'
`;

describe('POST /api/work-items/{id}/progress', () => {
  it('records plan_progress; 404 for an unknown item, 409 for an ended one, 422 without a task', async () => {
    const { jig, repo } = await engineSetup({ quick });
    const item = await fileItem(jig, repo, 'quick', false);
    const r = await post(jig, `/api/work-items/${item.id}/progress`, { task: 'write the parser' });
    expect(r.status).toBe(200);
    const ev = (await events(jig, item.id)).find((e) => e.type === 'plan_progress');
    expect(ev).toMatchObject({ by: 'agent', payload: { task: 'write the parser' } });
    expect(r.json).toEqual({ work_item_id: item.id, task: 'write the parser', seq: ev.seq });

    const missing = await post(jig, '/api/work-items/nope/progress', { task: 'x' });
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ detail: 'no work item nope', code: 'item_not_found' });

    const bad = await post(jig, `/api/work-items/${item.id}/progress`, {});
    expect(bad.status).toBe(422);
    expect(bad.json.code).toBe('validation_failed');

    await post(jig, `/api/work-items/${item.id}/cancel`, { reason: 'done with it' });
    const ended = await post(jig, `/api/work-items/${item.id}/progress`, { task: 'x' });
    expect(ended.status).toBe(409);
    expect(ended.json).toEqual({
      detail: 'the item is cancelled; it has ended',
      code: 'item_wrong_status',
      status: 'cancelled',
      allowed: ['paused', 'blocked', 'queued', 'running', 'stopped', 'waiting'],
    });
  });
});

describe('POST /api/work-items/{id}/budget/raise', () => {
  it('sets the item its own cap above what it spent; refuses a cap at or below it', async () => {
    const { jig, repo } = await engineSetup({ quick });
    const item = await fileItem(jig, repo, 'quick', false);
    const low = await post(jig, `/api/work-items/${item.id}/budget/raise`, { cap_usd: 0 });
    expect(low.status).toBe(422);
    expect(low.json).toEqual({
      detail: 'the new cap (0 USD) must be above what the item has spent (0 USD)',
      code: 'budget_not_raised',
      cap_usd: 0,
      spent_usd: 0,
    });
    const r = await post(jig, `/api/work-items/${item.id}/budget/raise`, { cap_usd: 5 });
    expect(r.status).toBe(200);
    expect(r.json).toEqual((await http(`${jig.url}/api/work-items/${item.id}`)).json);
    expect(r.json.budget_cap).toEqual({ cap_usd: 5, key: 'item', spent_usd: 0 });
    expect(r.json.status).toBe('paused');
    const raised = (await events(jig, item.id)).find((e) => e.type === 'budget_raised');
    expect(raised).toMatchObject({
      by: 'human',
      payload: { from: null, to: 5, spent_usd: 0, retried: false },
    });

    expect((await post(jig, '/api/work-items/nope/budget/raise', { cap_usd: 5 })).status).toBe(404);
    const negative = await post(jig, `/api/work-items/${item.id}/budget/raise`, { cap_usd: -1 });
    expect(negative.status).toBe(422);
    expect(negative.json.code).toBe('validation_failed');
    await post(jig, `/api/work-items/${item.id}/cancel`);
    const ended = await post(jig, `/api/work-items/${item.id}/budget/raise`, { cap_usd: 6 });
    expect(ended.status).toBe(409);
    expect(ended.json).toEqual({
      detail: 'the item is cancelled; it has ended',
      code: 'item_wrong_status',
      status: 'cancelled',
      allowed: ['paused', 'blocked', 'queued', 'running', 'stopped', 'waiting'],
    });
  });

  it('an item stopped on its budget runs again once the cap is raised', async () => {
    const home = tempHome();
    const flag = join(home, 'flag');
    const { jig, repo } = await engineSetup(
      {
        flag: `
nodes:
  - id: work
    kind: exec
    tasks:
      - id: needs_flag
        kind: subprocess
        argv: [test, -f, ${flag}]
`,
      },
      { home },
    );
    const item = await fileItem(jig, repo, 'flag');
    await until(jig, item.id, (i) => i.status === 'stopped');
    // Spending arrives with agent tasks; until then a budget stop is set up in the store.
    await dbRun(
      home,
      "UPDATE work_items SET stop_kind = 'budget', stop_reason = 'budget spent', spent_usd = 2, budget_usd = 2 WHERE id = ?",
      [item.id],
    );
    const atSpent = await post(jig, `/api/work-items/${item.id}/budget/raise`, { cap_usd: 2 });
    expect(atSpent.status).toBe(422);
    expect(atSpent.json).toEqual({
      detail: 'the new cap (2 USD) must be above what the item has spent (2 USD)',
      code: 'budget_not_raised',
      cap_usd: 2,
      spent_usd: 2,
    });
    writeFileSync(flag, '');
    const r = await post(jig, `/api/work-items/${item.id}/budget/raise`, { cap_usd: 4.5 });
    expect(r.status).toBe(200);
    expect(r.json.budget_cap).toEqual({ cap_usd: 4.5, key: 'item', spent_usd: 2 });
    await until(jig, item.id, (i) => i.status === 'completed');
    const raised = (await events(jig, item.id)).find((e) => e.type === 'budget_raised');
    expect(raised).toMatchObject({
      node: 'work',
      payload: { from: 2, to: 4.5, spent_usd: 2, retried: true },
    });
  });
});
