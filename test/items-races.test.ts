import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineSetup, events, fileItem, until } from './helpers/engine.js';
import { git } from './helpers/git.js';
import { cleanupAll, http, startJig, type JigProcess } from './helpers/server.js';

/*
 * Issue 14, finding 2: two moves sent at the same moment both decided on the status read before
 * either wrote, so 50 of 50 items ended "cancelled then abandoned". Each move now decides on the
 * row inside its own transaction: exactly one wins, the other answers what it answers run after.
 */

const ENDINGS = ['work_item_cancelled', 'work_item_manually_completed', 'work_item_abandoned'];
const ROUNDS = 12;

// A gate right away: items stop there at once, with a worktree, so the engine's moves race too.
const gate = `
nodes:
  - id: prepare
    kind: exec
    tasks:
      - id: nothing
        kind: subprocess
        run: 'true'
  - id: review
    kind: gate
    message: Decide
`;

let jig: JigProcess;
let repo: string;
const move = (id: string, m: string) =>
  http(`${jig.url}/api/work-items/${id}/${m}`, { method: 'POST', body: { reason: 'race' } });

beforeAll(async () => {
  ({ jig, repo } = await engineSetup({ gate }));
});
afterAll(cleanupAll);

async function paused(): Promise<string> {
  return (await fileItem(jig, repo, 'gate', false)).id;
}

describe('racing moves', () => {
  for (const [a, b] of [
    ['abandon', 'cancel'],
    ['abandon', 'abandon'],
    ['cancel', 'complete'],
    ['complete', 'abandon'],
  ] as const) {
    it(`${a} beside ${b}: one ending, the other move answers as it would run after`, async () => {
      const ids = await Promise.all(Array.from({ length: ROUNDS }, paused));
      const answers = await Promise.all(ids.map((id) => Promise.all([move(id, a), move(id, b)])));
      for (const [i, id] of ids.entries()) {
        const evs = await events(jig, id);
        const ends = evs.filter((e) => ENDINGS.includes(e.type));
        const item = (await http(`${jig.url}/api/work-items/${id}`)).json;
        const [ra, rb] = answers[i]!;
        const statuses = [ra.status, rb.status].sort();
        if (a === 'abandon' && b === 'cancel' && statuses[0] === 200 && statuses[1] === 200) {
          // A cancelled item can be abandoned (issue 28): the cancel won, then the abandon ran after it.
          expect(ends.map((e) => [e.type, e.payload.from])).toEqual([
            ['work_item_cancelled', 'paused'],
            ['work_item_abandoned', 'cancelled'],
          ]);
          expect(item.status).toBe('abandoned');
        } else {
          expect(ends, JSON.stringify(evs)).toHaveLength(1);
          expect(ends[0].payload.from).toBe('paused');
        }
        if (a === b) {
          // The same move twice: the second finds it done, and answers the item as it is.
          expect(statuses).toEqual([200, 200]);
          expect([ra.json.status, rb.json.status]).toEqual([item.status, item.status]);
        } else if (statuses[1] === 409) {
          expect(statuses).toEqual([200, 409]);
          const loser = ra.status === 409 ? ra : rb;
          const notEnded = ['paused', 'blocked', 'queued', 'running', 'stopped', 'waiting'];
          expect(loser.json).toEqual({
            code: 'item_wrong_status',
            detail: expect.stringMatching(
              /^the item is (cancelled|completed|abandoned); only an item that has not ended(, or a cancelled one,)? can be/,
            ),
            status: item.status,
            allowed: (ra.status === 409 ? a : b) === 'abandon' ? [...notEnded, 'cancelled'] : notEnded,
          });
        }
        // An abandon cleans up once, after it won.
        const reclaimed = evs.filter((e) => e.type === 'worktree_reclaimed');
        expect(reclaimed).toHaveLength(item.status === 'abandoned' ? 1 : 0);
      }
    });
  }

  it('a gate approval beside a cancel never brings a cancelled item back to running', async () => {
    const items = await Promise.all(Array.from({ length: ROUNDS }, () => fileItem(jig, repo, 'gate', true)));
    for (const it of items) await until(jig, it.id, (i) => i.status === 'stopped');
    const answers = await Promise.all(
      items.map((it) =>
        Promise.all([
          http(`${jig.url}/api/work-items/${it.id}/gates/review/approve`, { method: 'POST' }),
          move(it.id, 'cancel'),
        ]),
      ),
    );
    for (const [i, it] of items.entries()) {
      const [approve, cancel] = answers[i]!;
      const final = await until(jig, it.id, (x) => x.status === 'cancelled' || x.status === 'completed');
      const types = (await events(jig, it.id)).map((e) => e.type);
      // One ending, whoever won.
      expect(types.filter((t) => t === 'work_item_cancelled' || t === 'work_item_completed')).toHaveLength(1);
      if (final.status === 'completed') {
        // The approval won and the walk finished first: the cancel found an ended item.
        expect([approve.status, cancel.status, cancel.json.code]).toEqual([200, 409, 'item_wrong_status']);
      } else {
        expect(cancel.status).toBe(200);
        // Once cancelled, nothing the engine records brings it back.
        const after = types.slice(types.indexOf('work_item_cancelled') + 1);
        expect(after.filter((t) => t === 'work_item_completed' || t === 'node_started')).toEqual([]);
      }
      if (approve.status === 409) {
        // Refused on the ended item: its gate no longer waits (or the cancel landed mid-decision).
        expect(['gate_not_waiting', 'item_changed']).toContain(approve.json.code);
        expect(types).not.toContain('gate_approved');
      } else {
        expect(approve.status).toBe(200);
        expect(types).toContain('gate_approved');
      }
    }
  });

  it('an abandon stopped before its cleanup is finished at the next start', async () => {
    const item = await fileItem(jig, repo, 'gate', true);
    // Abandoned by an earlier Jig, whose abandon event carried its cleanup: left as it is.
    const older = await fileItem(jig, repo, 'gate', false);
    const stopped = await until(jig, item.id, (i) => i.status === 'stopped');
    const wt = join(jig.home, 'run', 'worktrees', item.id);
    expect(existsSync(wt)).toBe(true);
    await jig.stop('SIGKILL');
    // What a kill -9 right after the abandon's transaction leaves: the ending, not the cleanup.
    const db = new Database(join(jig.home, 'run', 'jig.db'));
    db.prepare("UPDATE work_items SET status = 'abandoned', ended_at = updated_at WHERE id = ?").run(item.id);
    db.prepare(
      "INSERT INTO events (work_item_id, type, by, node, payload, at) VALUES (?, 'work_item_abandoned', 'human', NULL, ?, ?)",
    ).run(item.id, JSON.stringify({ from: stopped.status, reason: 'race' }), new Date().toISOString());
    db.prepare("UPDATE work_items SET status = 'abandoned', ended_at = updated_at WHERE id = ?").run(
      older.id,
    );
    db.prepare(
      "INSERT INTO events (work_item_id, type, by, node, payload, at) VALUES (?, 'work_item_abandoned', 'human', NULL, ?, ?)",
    ).run(
      older.id,
      JSON.stringify({ from: 'paused', reason: 'old', worktree_removed: false, branch_deleted: false }),
      new Date().toISOString(),
    );
    db.close();
    jig = await startJig({ home: jig.home });
    expect((await http(`${jig.url}/api/work-items/${item.id}`)).json.status).toBe('abandoned');
    const ro = new Database(join(jig.home, 'run', 'jig.db'), { readonly: true });
    expect(ro.prepare('SELECT worktree_path FROM work_items WHERE id = ?').get(item.id)).toEqual({
      worktree_path: null,
    });
    ro.close();
    expect(existsSync(wt)).toBe(false);
    expect(git(repo, 'branch', '--list', item.branch)).toBe('');
    const last = (await events(jig, item.id)).at(-1);
    expect([last.type, last.by, last.payload]).toEqual([
      'worktree_reclaimed',
      'jig',
      { worktree_removed: true, branch_deleted: true },
    ]);
    expect((await events(jig, older.id)).at(-1).type).toBe('work_item_abandoned');
  });
});
