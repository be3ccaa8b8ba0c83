import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { engineSetup, events, fileItem, post, until, untilEach } from './helpers/engine.js';
import { eventually } from './helpers/eventually.js';
import { cleanupAll, http } from './helpers/server.js';
import { fifoHold } from './helpers/hold.js';
import { cleanupButShared, shareServerPerFile } from './helpers/shared-home.js';

/*
 * Issue 40, points 1 and 2: a person's move on a running item answers at once, with its effect or
 * a 409 saying why, and is never applied later; a gate decision answers the gate request it names
 * (or the one open on arrival), and of two decisions on one request exactly one applies.
 */

// The tests need nothing of a server but their chains, policy and repository, and move no clock:
// they share one `jig serve`, reset between them. Its git and task processes are forks of that
// server, not of this test's process (twice its size, and each fork cost twice the CPU).
shareServerPerFile();
afterEach(cleanupButShared);
afterAll(cleanupAll);

/** A chain whose first node runs until the test lets `hold` go, then a gate. */
function heldChain(hold: string): string {
  return `
nodes:
  - id: work
    kind: exec
    tasks:
      - id: hold
        kind: subprocess
        run: '${hold}; echo held >> held.txt'
  - id: review
    kind: gate
    message: Look at held.txt
    reject_to: work
  - id: finish
    kind: exec
    tasks:
      - id: last
        kind: subprocess
        run: echo finished
`;
}

const runningSession = async (jig: { url: string }, id: string) =>
  (await http(`${jig.url}/api/work-items/${id}/sessions`)).json.sessions.filter(
    (s: { status: string }) => s.status === 'running',
  ).length;

/** Polls until the item's node has its one process running (bounded by count). */
async function holding(jig: { url: string }, id: string): Promise<void> {
  await eventually(async () => (await runningSession(jig, id)) === 1, {
    what: `${id} to start its held task`,
    everyMs: 50,
  });
}

describe('moves while a node runs', () => {
  it('each answers before the node ends, with its documented result, and none applies later', async () => {
    const hold = fifoHold();
    const { jig, repo } = await engineSetup({ held: heldChain(hold.script) });
    const item = await fileItem(jig, repo, 'held');
    await holding(jig, item.id);
    const base = `/api/work-items/${item.id}`;
    const [approve, reject, resume, retry, skip, steer, raise, gateReview, changes] = await Promise.all([
      post(jig, `${base}/gates/review/approve`, {}),
      post(jig, `${base}/gates/review/reject`, { note: 'redo it' }),
      post(jig, `${base}/resume`, {}),
      post(jig, `${base}/retry`, {}),
      post(jig, `${base}/skip`, {}),
      post(jig, `${base}/steer`, { note: 'try harder' }),
      post(jig, `${base}/budget/raise`, { cap_usd: 5 }),
      post(jig, `${base}/gates/review/review`, { outcome: 'approve' }),
      post(jig, `${base}/review`, { outcome: 'request_changes', summary: 'more' }),
    ]);
    // Every answer came while the node still ran: its process waits for a file nobody made yet.
    const during = (await http(`${jig.url}${base}`)).json;
    expect([during.status, during.current_node, await runningSession(jig, item.id)]).toEqual([
      'running',
      'work',
      1,
    ]);
    const refusal = (r: { status: number; json: any }) => [r.status, r.json.code, r.json.detail];
    expect(refusal(approve)).toEqual([
      409,
      'gate_not_waiting',
      'gate review is not waiting for a decision (the item is running)',
    ]);
    expect(refusal(reject)).toEqual([
      409,
      'gate_not_waiting',
      'gate review is not waiting for a decision (the item is running)',
    ]);
    expect([resume.status, resume.json.status]).toEqual([200, 'running']);
    expect(refusal(retry)).toEqual([
      409,
      'item_wrong_status',
      'the item is running; only a stopped item can be retried',
    ]);
    expect(refusal(skip)).toEqual([
      409,
      'item_wrong_status',
      'the item is running; only a stopped or paused item that has started can skip: pause it first',
    ]);
    expect(refusal(steer)).toEqual([
      409,
      'item_wrong_status',
      'the item is running; a steer is stored for a paused, blocked or stopped item: pause it first',
    ]);
    expect([raise.status, raise.json.budget_cap]).toEqual([200, { cap_usd: 5, key: 'item', spent_usd: 0 }]);
    expect(refusal(gateReview)).toEqual([
      409,
      'gate_not_waiting',
      'gate review is not waiting for a decision (the item is running)',
    ]);
    expect(refusal(changes)).toEqual([
      409,
      'no_fix_target',
      'the item is running: changes can be requested when it waits at a gate or is stopped',
    ]);

    hold.release();
    const atGate = await until(jig, item.id, (i) => i.stop?.kind === 'gate');
    const evs = await events(jig, item.id);
    const asked = evs.filter((e) => e.type === 'gate_requested');
    expect(asked).toHaveLength(1);
    expect(atGate.gate_request).toBe(asked[0].seq);
    // Nothing refused was applied once the node ended: the walk came to the gate and waits there.
    const moved = evs.filter((e) =>
      ['gate_approved', 'gate_rejected', 'node_skipped', 'work_item_retried', 'steer_context_set'].includes(
        e.type,
      ),
    );
    expect(moved).toEqual([]);
    expect(evs.filter((e) => e.type === 'budget_raised').map((e) => e.payload)).toEqual([
      { from: null, to: 5, spent_usd: 0, retried: false },
    ]);
    expect(evs.filter((e) => e.type === 'node_started').map((e) => e.node)).toEqual(['work']);
  });

  it('a pause and a resume while the node runs start a new walk; the old one writes nothing more', async () => {
    const hold = fifoHold();
    const { jig, repo } = await engineSetup({ held: heldChain(hold.script) });
    const item = await fileItem(jig, repo, 'held');
    await holding(jig, item.id);
    const base = `/api/work-items/${item.id}`;
    expect((await post(jig, `${base}/pause`, {})).status).toBe(200);
    const resumed = await post(jig, `${base}/resume`, {});
    expect([resumed.status, resumed.json.status]).toEqual([200, 'running']);
    hold.release();
    const atGate = await until(jig, item.id, (i) => i.stop?.kind === 'gate');
    expect(atGate.current_node).toBe('review');
    const evs = await events(jig, item.id);
    // One gate request, one node completion: the walk overtaken by the resume ended quietly.
    expect(evs.filter((e) => e.type === 'gate_requested')).toHaveLength(1);
    expect(evs.filter((e) => e.type === 'node_completed').map((e) => e.node)).toEqual(['work']);
    expect(evs.filter((e) => e.type === 'work_item_needs_human')).toEqual([]);
  });
});

/*
 * Fifty items at once, each decided twice at the same moment: bounded by that count, not by time.
 * On PostgreSQL beside three other busy files on a slow 2-core machine one of these tests took over
 * two minutes, so they get five (a bound on a hang, not a figure they are held to).
 */
describe('gate requests', { timeout: 300_000 }, () => {
  const ROUNDS = 50;
  const quick = `
nodes:
  - id: work
    kind: exec
    tasks:
      - id: touch
        kind: subprocess
        run: echo once >> out.txt
  - id: review
    kind: gate
    message: Decide
    reject_to: work
`;
  const policy = 'max_concurrent: 50\n';

  /** ROUNDS items waiting at their gate, each with its open request. */
  async function atGates(jig: { url: string }, repo: string): Promise<any[]> {
    const items = await Promise.all(Array.from({ length: ROUNDS }, () => fileItem(jig, repo, 'quick')));
    return untilEach(
      jig,
      items.map((i) => i.id),
      (x) => x.stop?.kind === 'gate',
      600,
    );
  }

  const decide = (jig: { url: string }, id: string, how: 'approve' | 'reject', body: object) =>
    post(jig, `/api/work-items/${id}/gates/review/${how}`, body);

  it('reject beside reject: one applies; the same note again answers the item, another note is 409', async () => {
    const { jig, repo } = await engineSetup({ quick }, { policy });
    const items = await atGates(jig, repo);
    const answers = await Promise.all(
      items.map((it, i) => {
        const second = i % 2 === 0 ? 'double click' : 'another view';
        return Promise.all([
          decide(jig, it.id, 'reject', { note: 'double click', request: it.gate_request }),
          decide(jig, it.id, 'reject', { note: second, request: it.gate_request }),
        ]);
      }),
    );
    for (const [i, it] of items.entries()) {
      const evs = await events(jig, it.id);
      const rejected = evs.filter((e) => e.type === 'gate_rejected');
      expect(rejected, JSON.stringify(evs)).toHaveLength(1);
      expect(rejected[0].payload.request).toBe(it.gate_request);
      const statuses = answers[i]!.map((a) => a.status).sort();
      if (i % 2 === 0) expect(statuses).toEqual([200, 200]);
      else {
        expect(statuses).toEqual([200, 409]);
        const loser = answers[i]!.find((a) => a.status === 409)!;
        expect(loser.json).toMatchObject({ code: 'gate_not_waiting', gate: 'review' });
        expect(loser.json.detail).toContain(`request ${it.gate_request} was rejected by human`);
      }
    }
    // Every item ran its node twice (once, then the one rerun), never three times.
    await untilEach(
      jig,
      items.map((it) => it.id),
      (x) => x.stop?.kind === 'gate',
      600,
    );
    for (const it of items) {
      const evs = await events(jig, it.id);
      expect(evs.filter((e) => e.type === 'node_started')).toHaveLength(2);
    }
  });

  it('reject beside approve: exactly one decision on the request the senders saw', async () => {
    const { jig, repo } = await engineSetup({ quick }, { policy });
    const items = await atGates(jig, repo);
    const answers = await Promise.all(
      items.map((it) =>
        Promise.all([
          decide(jig, it.id, 'reject', { note: 'no', request: it.gate_request }),
          decide(jig, it.id, 'approve', { request: it.gate_request }),
        ]),
      ),
    );
    for (const [i, it] of items.entries()) {
      const evs = await events(jig, it.id);
      const decided = evs.filter((e) => e.type === 'gate_rejected' || e.type === 'gate_approved');
      expect(decided, JSON.stringify(evs)).toHaveLength(1);
      expect(decided[0].payload.request).toBe(it.gate_request);
      const [r, a] = answers[i]!;
      const won = decided[0].type === 'gate_rejected' ? r : a;
      const lost = decided[0].type === 'gate_rejected' ? a : r;
      expect([won.status, lost.status, lost.json.code]).toEqual([200, 409, 'gate_not_waiting']);
    }
    await untilEach(
      jig,
      items.map((it) => it.id),
      (x) => x.status === 'completed' || x.stop?.kind === 'gate',
      600,
    );
  });

  it('an approve that names an answered request never passes the request after it', async () => {
    const { jig, repo } = await engineSetup({ quick });
    const item = await fileItem(jig, repo, 'quick');
    const first = await until(jig, item.id, (x) => x.stop?.kind === 'gate');
    const rejected = await decide(jig, item.id, 'reject', { note: 'again', request: first.gate_request });
    expect(rejected.status).toBe(200);
    const second = await until(
      jig,
      item.id,
      (x) => x.stop?.kind === 'gate' && x.gate_request !== first.gate_request,
    );
    const late = await decide(jig, item.id, 'approve', { request: first.gate_request });
    expect([late.status, late.json]).toEqual([
      409,
      {
        code: 'gate_not_waiting',
        detail: `gate review is not waiting for a decision (the item is stopped); request ${first.gate_request} was rejected by human; the item waits at gate review (request ${second.gate_request})`,
        status: 'stopped',
        gate: 'review',
        request: second.gate_request,
      },
    ]);
    expect((await http(`${jig.url}/api/work-items/${item.id}`)).json.gate_request).toBe(second.gate_request);
    const ok = await decide(jig, item.id, 'approve', { request: second.gate_request });
    expect([ok.status, ok.json.status]).toEqual([200, 'running']);
    // The same approval again, as a retried request would send it: the item as it is, nothing more.
    const again = await decide(jig, item.id, 'approve', { request: second.gate_request });
    expect(again.status).toBe(200);
    await until(jig, item.id, (x) => x.status === 'completed');
    const evs = await events(jig, item.id);
    expect(evs.filter((e) => e.type === 'gate_approved').map((e) => e.payload)).toEqual([
      { gate: 'review', request: second.gate_request },
    ]);
  });

  it('approves sent while the node before the gate runs are refused at once and never applied', async () => {
    const hold = fifoHold();
    const { jig, repo } = await engineSetup({ held: heldChain(hold.script) }, { policy });
    const items = await Promise.all(Array.from({ length: ROUNDS }, () => fileItem(jig, repo, 'held')));
    // One after another: fifty polls side by side every 50 ms cost more than the runs they watch.
    for (const it of items) await holding(jig, it.id);
    const early = await Promise.all(items.map((it) => decide(jig, it.id, 'approve', {})));
    // Answered while every node still held: none waited for its gate.
    expect((await Promise.all(items.map((it) => runningSession(jig, it.id)))).every((n) => n === 1)).toBe(
      true,
    );
    expect(early.map((r) => [r.status, r.json.code])).toEqual(items.map(() => [409, 'gate_not_waiting']));
    hold.release();
    const waiting = await untilEach(
      jig,
      items.map((it) => it.id),
      (x) => x.stop?.kind === 'gate',
      600,
    );
    for (const it of waiting) {
      const evs = await events(jig, it.id);
      expect(evs.filter((e) => e.type === 'gate_approved')).toEqual([]);
      expect(it.gate_request).toBe(evs.filter((e) => e.type === 'gate_requested')[0].seq);
    }
    // Decided now, each on the request its sender saw: one approval each, naming it.
    const now = await Promise.all(
      waiting.map((it) => decide(jig, it.id, 'approve', { request: it.gate_request })),
    );
    expect(now.map((r) => r.status)).toEqual(items.map(() => 200));
    for (const it of waiting) {
      await until(jig, it.id, (x) => x.status === 'completed', 600);
      const approved = (await events(jig, it.id)).filter((e) => e.type === 'gate_approved');
      expect(approved.map((e) => e.payload)).toEqual([{ gate: 'review', request: it.gate_request }]);
    }
  });
});
