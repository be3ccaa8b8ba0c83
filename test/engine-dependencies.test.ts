import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { engineSetup, events, post, until } from './helpers/engine.js';
import { holdUntil } from './helpers/hold.js';
import { cleanupAll, http, tempHome } from './helpers/server.js';
import { cleanupButShared, shareServerPerFile } from './helpers/shared-home.js';
import { dbAll, dbRun } from './helpers/test-store.js';

// Items that come after others (`after`, issue 46): blocked starts, the release on completion,
// unblock, cycles, and dependencies that will never complete. One shared server for the file.
shareServerPerFile();
afterEach(cleanupButShared);
afterAll(cleanupAll);

/** A chain whose one task appends the item's id to `log`, once `go-<id>` is in `holds` when given. */
function logger(log: string, holds?: string): string {
  const wait = holds ? `${holdUntil(`"${holds}/go-$JIG_WORK_ITEM_ID"`)}; ` : '';
  return `
nodes:
  - id: work
    kind: exec
    tasks:
      - id: log
        kind: subprocess
        run: '${wait}echo "$JIG_WORK_ITEM_ID" >> ${log}'
`;
}

const policy = (max: number) => `max_concurrent: ${max}\n`;

async function create(jig: { url: string }, repo: string, chain: string, extra: Record<string, unknown>) {
  const r = await http(`${jig.url}/api/work-items`, {
    method: 'POST',
    body: { title: `Item ${String(extra.title ?? chain)}`, repo, chain, ...extra },
  });
  expect(r.status, r.text).toBe(201);
  return r.json;
}

const linked = (i: { id: string; title: string }, status: string) => ({ id: i.id, title: i.title, status });
const types = async (jig: { url: string }, id: string) => (await events(jig, id)).map((e) => e.type);

describe('items that come after others', () => {
  it('a chain of three filed with after and all started runs one after another without a person', async () => {
    const log = join(mkdtempSync(join(tmpdir(), 'jig-deps-')), 'order.txt');
    const { jig, repo } = await engineSetup({ step: logger(log) }, { policy: policy(3) });
    const a = await create(jig, repo, 'step', { title: 'a' });
    const b = await create(jig, repo, 'step', { title: 'b', after: [a.id] });
    const c = await create(jig, repo, 'step', { title: 'c', after: [b.id] });
    // Started last first: c and b wait blocked, a runs.
    const cs = await post(jig, `/api/work-items/${c.id}/resume`);
    expect(cs.status, cs.text).toBe(200);
    expect(cs.json.status).toBe('blocked');
    expect(cs.json.display_status).toBe('blocked');
    expect(cs.json.waiting_on).toEqual([linked(b, 'paused')]);
    expect(cs.json.started_at).toBeNull();
    const bs = await post(jig, `/api/work-items/${b.id}/resume`);
    expect(bs.json.waiting_on).toEqual([linked(a, 'paused')]);
    await post(jig, `/api/work-items/${a.id}/resume`);
    const done = await until(jig, c.id, (i) => i.status === 'completed');
    expect(done.dependencies).toEqual([linked(b, 'completed')]);
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual([a.id, b.id, c.id]);
    const bEvents = await events(jig, b.id);
    const unblocked = bEvents.find((e) => e.type === 'work_item_unblocked');
    expect(unblocked.payload).toEqual({ status: 'running', completed: a.id });
    expect(bEvents.find((e) => e.type === 'work_item_blocked').payload).toEqual({
      waiting_on: [linked(a, 'paused')],
    });
    expect((await http(`${jig.url}/api/work-items/${a.id}`)).json.dependents).toEqual([
      linked(b, 'completed'),
    ]);
  });

  it('a blocked start holds no slot and no worktree, even on a full board', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jig-deps-'));
    const log = join(dir, 'order.txt');
    const { jig, repo, home } = await engineSetup({ held: logger(log, dir) }, { policy: policy(1) });
    const a = await create(jig, repo, 'held', { title: 'a', start: true });
    expect(a.status).toBe('running');
    const b = await create(jig, repo, 'held', { title: 'b', after: [a.id], start: true });
    expect(b.status).toBe('blocked');
    expect(b.waiting_on).toEqual([linked(a, 'running')]);
    const rows = await dbAll<{ worktree_path: string | null; started_at: string | null }>(
      home,
      'SELECT worktree_path, started_at FROM work_items WHERE id = ?',
      [b.id],
    );
    expect(rows).toEqual([{ worktree_path: null, started_at: null }]);
    // A third item with no dependency queues for the one slot a holds; b is not in its way.
    const d = await create(jig, repo, 'held', { title: 'd', start: true });
    expect(d.status).toBe('queued');
    const blocked = (await http(`${jig.url}/api/work-items?status=blocked`)).json;
    expect(blocked.items.map((i: any) => [i.id, i.waiting_on])).toEqual([[b.id, [linked(a, 'running')]]]);
    expect(await types(jig, b.id)).not.toContain('work_item_queued');
    for (const x of [a, b, d]) writeFileSync(join(dir, `go-${x.id}`), '');
    await until(jig, b.id, (i) => i.status === 'completed');
    await until(jig, d.id, (i) => i.status === 'completed');
    const order = readFileSync(log, 'utf8').trim().split('\n');
    expect(order.indexOf(a.id)).toBeLessThan(order.indexOf(b.id));
  });

  it('a cycle, the item itself and an unknown id are refused naming them, and nothing is written', async () => {
    const { jig, repo } = await engineSetup({ step: logger('/dev/null') });
    const a = await create(jig, repo, 'step', { title: 'a' });
    const b = await create(jig, repo, 'step', { title: 'b', after: [a.id] });
    const c = await create(jig, repo, 'step', { title: 'c', after: [b.id] });
    const cycle = await http(`${jig.url}/api/work-items/${a.id}`, {
      method: 'PATCH',
      body: { after: [c.id] },
    });
    expect(cycle.status).toBe(422);
    expect(cycle.json).toEqual({
      code: 'dependency_cycle',
      field: 'after',
      cycle: [a.id, c.id, b.id, a.id],
      detail: `after: coming after these would close a cycle: ${a.id} → ${c.id} → ${b.id} → ${a.id}`,
    });
    const self = await http(`${jig.url}/api/work-items/${a.id}`, {
      method: 'PATCH',
      body: { after: [a.id], title: 'renamed' },
    });
    expect(self.status).toBe(422);
    expect(self.json.cycle).toEqual([a.id, a.id]);
    const unknown = await http(`${jig.url}/api/work-items`, {
      method: 'POST',
      body: { title: 'x', repo, chain: 'step', after: ['wi_nope'] },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.json).toMatchObject({ code: 'dependency_unknown', field: 'after', ids: ['wi_nope'] });
    const twice = await http(`${jig.url}/api/work-items`, {
      method: 'POST',
      body: { title: 'x', repo, chain: 'step', after: [a.id, a.id] },
    });
    expect(twice.status).toBe(422);
    expect(twice.json.detail).toContain('after');
    // The refused PATCH changed nothing, its title included, nor an attachment it would drop.
    const still = (await http(`${jig.url}/api/work-items/${a.id}`)).json;
    expect([still.title, still.dependencies]).toEqual([a.title, undefined]);
    const specced = await create(jig, repo, 'step', {
      title: 's',
      attachments: { spec: { text: '# Spec' } },
    });
    const refusedDrop = await http(`${jig.url}/api/work-items/${specced.id}`, {
      method: 'PATCH',
      body: { attachments: { spec: null }, after: [specced.id] },
    });
    expect(refusedDrop.status).toBe(422);
    expect((await http(`${jig.url}/api/work-items/${specced.id}/attachments/spec`)).status).toBe(200);
    const listed = (await http(`${jig.url}/api/work-items?limit=500`)).json.items.map((i: any) => i.title);
    expect(listed.filter((t: string) => t === 'x')).toEqual([]);
    // A trigger files after items too, and is refused the same way.
    const trig = await http(`${jig.url}/api/triggers`, {
      method: 'POST',
      body: { title: 'triggered', repo, chain: 'step', after: [a.id] },
    });
    expect(trig.status, trig.text).toBe(201);
    expect((await http(`${jig.url}/api/work-items/${trig.json.id}`)).json.dependencies).toEqual([
      linked(a, 'paused'),
    ]);
    const badTrig = await http(`${jig.url}/api/triggers`, {
      method: 'POST',
      body: { title: 'triggered', repo, chain: 'step', after: ['wi_nope'] },
    });
    expect([badTrig.status, badTrig.json.code]).toEqual([422, 'dependency_unknown']);
    // A dry run reads `after` as a filing does.
    const dry = await http(`${jig.url}/api/work-items?dry_run=1`, {
      method: 'POST',
      body: { title: 'y', repo, chain: 'step', after: [a.id], start: true },
    });
    expect(dry.status).toBe(200);
    expect(dry.json.would_file.status).toBe('blocked');
  });

  it('unblock drops one dependency or all; a blocked item with nothing left starts', async () => {
    const { jig, repo } = await engineSetup({ step: logger('/dev/null') });
    const a = await create(jig, repo, 'step', { title: 'a' });
    const x = await create(jig, repo, 'step', { title: 'x' });
    const b = await create(jig, repo, 'step', { title: 'b', after: [a.id, x.id], start: true });
    expect(b.waiting_on).toEqual([linked(a, 'paused'), linked(x, 'paused')]);
    const wrong = await post(jig, `/api/work-items/${b.id}/unblock`, { dependency: 'wi_other' });
    expect(wrong.status).toBe(409);
    expect(wrong.json).toEqual({
      code: 'not_a_dependency',
      dependency: 'wi_other',
      detail: `the item does not come after wi_other; it comes after: ${[a.id, x.id].join(', ')}`,
    });
    const one = await post(jig, `/api/work-items/${b.id}/unblock`, { dependency: x.id });
    expect(one.json).toEqual({
      id: b.id,
      dropped: [x.id],
      waiting_on: [linked(a, 'paused')],
      status: 'blocked',
    });
    const all = await post(jig, `/api/work-items/${b.id}/unblock`);
    expect(all.status).toBe(200);
    expect(all.json).toEqual({ id: b.id, dropped: [a.id], waiting_on: [], status: 'running' });
    await until(jig, b.id, (i) => i.status === 'completed');
    const ev = await events(jig, b.id);
    expect(ev.filter((e) => e.type === 'dependencies_changed').map((e) => e.payload)).toEqual([
      { from: [a.id, x.id], to: [a.id] },
      { from: [a.id], to: [] },
    ]);
    expect(ev.find((e) => e.type === 'work_item_unblocked').payload).toEqual({
      status: 'running',
      dropped: [a.id],
    });
  });

  it('PATCH after on a blocked item that leaves nothing to wait on starts it; pause keeps its dependencies', async () => {
    const { jig, repo } = await engineSetup({ step: logger('/dev/null') });
    const a = await create(jig, repo, 'step', { title: 'a' });
    const b = await create(jig, repo, 'step', { title: 'b', after: [a.id], start: true });
    const paused = await post(jig, `/api/work-items/${b.id}/pause`);
    expect(paused.json.status).toBe('paused');
    expect((await http(`${jig.url}/api/work-items/${b.id}`)).json.dependencies).toEqual([
      linked(a, 'paused'),
    ]);
    const again = await post(jig, `/api/work-items/${b.id}/resume`);
    expect(again.json.status).toBe('blocked');
    const patched = await http(`${jig.url}/api/work-items/${b.id}`, { method: 'PATCH', body: { after: [] } });
    expect(patched.status, patched.text).toBe(200);
    expect(['running', 'completed']).toContain(patched.json.status);
    await until(jig, b.id, (i) => i.status === 'completed');
  });

  it('a dependency abandoned leaves its dependent blocked, needing a person, and a start after it is 409', async () => {
    const { jig, repo } = await engineSetup({ step: logger('/dev/null') });
    const a = await create(jig, repo, 'step', { title: 'a' });
    const b = await create(jig, repo, 'step', { title: 'b', after: [a.id], start: true });
    const preview = (await http(`${jig.url}/api/work-items/${a.id}/cancel-preview`)).json;
    expect(preview.dependents).toEqual([linked(b, 'blocked')]);
    const cancelled = await post(jig, `/api/work-items/${a.id}/cancel`, { reason: 'not now' });
    expect(cancelled.json.dependents).toEqual([linked(b, 'blocked')]);
    const abandoned = await post(jig, `/api/work-items/${a.id}/abandon`, { reason: 'not needed' });
    expect(abandoned.status).toBe(200);
    expect(abandoned.json.dependents).toEqual([linked(b, 'blocked')]);
    // Said once, when it first needed a person; the reason follows the dependency's end.
    const told = (await events(jig, b.id)).filter((e) =>
      ['dependency_ended', 'work_item_needs_human'].includes(e.type),
    );
    expect(told.map((e) => [e.type, e.payload.kind ?? e.payload.status])).toEqual([
      ['dependency_ended', 'cancelled'],
      ['work_item_needs_human', 'dependency'],
    ]);
    const held = (await http(`${jig.url}/api/work-items/${b.id}`)).json;
    expect([held.status, held.display_status, held.stop.kind]).toEqual([
      'blocked',
      'needs_you',
      'dependency',
    ]);
    expect(held.stop.reason).toBe(
      `it comes after items that will never complete: ${a.id} (${a.title}) was abandoned. Drop it (Unblock, or \`jig item unblock ${b.id} --dependency ${a.id}\`) to go on, or cancel this item.`,
    );
    expect(held.stop.suggested_action).toEqual({ action: 'unblock', reason: held.stop.reason });
    // A new item filed to start at once after it is refused, and nothing is filed.
    const before = (await http(`${jig.url}/api/work-items?archived=all`)).json.total;
    const late = await http(`${jig.url}/api/work-items`, {
      method: 'POST',
      body: { title: 'late', repo, chain: 'step', after: [a.id], start: true },
    });
    expect(late.status).toBe(409);
    expect(late.json).toEqual({
      code: 'dependency_ended',
      field: 'after',
      dependency: a.id,
      dependency_status: 'abandoned',
      detail: `it comes after ${a.id} (${a.title}), which was abandoned and will never complete: leave it out of after`,
    });
    expect((await http(`${jig.url}/api/work-items?archived=all`)).json.total).toBe(before);
    await post(jig, `/api/work-items/${b.id}/pause`);
    const refused = await post(jig, `/api/work-items/${b.id}/resume`);
    expect(refused.status).toBe(409);
    expect(refused.json).toEqual({
      code: 'dependency_ended',
      dependency: a.id,
      dependency_status: 'abandoned',
      detail: `it comes after ${a.id} (${a.title}), which was abandoned and will never complete: drop it first (POST /api/work-items/${b.id}/unblock, \`jig item unblock ${b.id} --dependency ${a.id}\`)`,
    });
    expect((await http(`${jig.url}/api/work-items/${b.id}`)).json.status).toBe('paused');
    const u = await post(jig, `/api/work-items/${b.id}/unblock`, { dependency: a.id });
    expect(u.json).toEqual({ id: b.id, dropped: [a.id], waiting_on: [], status: 'paused' });
    await post(jig, `/api/work-items/${b.id}/resume`);
    await until(jig, b.id, (i) => i.status === 'completed');
  });

  it('a retry of a stopped item whose after changed meanwhile blocks it; unblock lets the retry run', async () => {
    const failing = `
nodes:
  - id: work
    kind: exec
    tasks:
      - id: fail
        kind: subprocess
        run: 'false'
`;
    const { jig, repo } = await engineSetup({ step: logger('/dev/null'), failing });
    const x = await create(jig, repo, 'failing', { title: 'x', start: true });
    await until(jig, x.id, (i) => i.status === 'stopped');
    const a = await create(jig, repo, 'step', { title: 'a' });
    const patched = await http(`${jig.url}/api/work-items/${x.id}`, {
      method: 'PATCH',
      body: { after: [a.id] },
    });
    expect([patched.status, patched.json.status]).toEqual([200, 'stopped']);
    const retried = await post(jig, `/api/work-items/${x.id}/retry`);
    expect(retried.status, retried.text).toBe(200);
    expect([retried.json.status, retried.json.stop, retried.json.waiting_on]).toEqual([
      'blocked',
      null,
      [linked(a, 'paused')],
    ]);
    const kinds = await types(jig, x.id);
    expect(kinds.slice(kinds.indexOf('work_item_retried'))).toEqual([
      'work_item_retried',
      'work_item_blocked',
    ]);
    const u = await post(jig, `/api/work-items/${x.id}/unblock`);
    expect(u.json).toEqual({ id: x.id, dropped: [a.id], waiting_on: [], status: 'running' });
    await until(jig, x.id, (i) => i.status === 'stopped' && i.stop?.kind === 'failed');
  });

  it('a completion whose dependents were not looked at (a crash between) starts them at the next start', async () => {
    // A home of its own: the file's shared server is not the one to kill.
    const { jig, repo, home } = await engineSetup({ step: logger('/dev/null') }, { home: tempHome() });
    const a = await create(jig, repo, 'step', { title: 'a' });
    const b = await create(jig, repo, 'step', { title: 'b', after: [a.id], start: true });
    expect(b.status).toBe('blocked');
    await jig.stop('SIGKILL');
    // What a completion written just before the kill leaves: the dependency completed, b still blocked.
    await dbRun(home, `UPDATE work_items SET status = ?, ended_at = ? WHERE id = ?`, [
      'completed',
      new Date().toISOString(),
      a.id,
    ]);
    const { startJig } = await import('./helpers/server.js');
    const again = await startJig({ home });
    await until(again, b.id, (i) => i.status === 'completed');
    expect(await types(again, b.id)).toContain('work_item_unblocked');
  });
});
