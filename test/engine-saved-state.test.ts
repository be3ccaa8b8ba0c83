import { dbAll, dbRun } from './helpers/test-store.js';
import { afterAll, describe, expect, it } from 'vitest';
import { engineSetup, events, fileItem, until } from './helpers/engine.js';
import { cleanupAll, http, startJig } from './helpers/server.js';

afterAll(cleanupAll);

/* An item's frozen chain, policy and walk are parsed when read; one that cannot be read stops the
   item for a person (kind infra) instead of running it on a guess or freezing it again. */

const chain = `
nodes:
  - id: work
    kind: exec
    tasks:
      - id: fail
        kind: subprocess
        run: exit 1
`;

describe('saved state that cannot be read', () => {
  it('stops the item as infra, naming the column and why, after a restart finds it running', async () => {
    const { jig, repo, home } = await engineSetup({ once: chain });
    const item = await fileItem(jig, repo, 'once');
    const stopped = await until(jig, item.id, (i) => i.status === 'stopped');
    expect(stopped.stop.kind).toBe('failed');
    await jig.stop();

    // As a newer release would leave it: a walk of a version this one does not know, still running.
    const [saved] = await dbAll<{ walk: string }>(home, 'SELECT walk FROM work_items WHERE id = ?', [
      item.id,
    ]);
    const walk = JSON.parse(saved!.walk);
    await dbRun(
      home,
      "UPDATE work_items SET walk = ?, status = 'running', stop_kind = NULL, stop_reason = NULL WHERE id = ?",
      [JSON.stringify({ ...walk, v: 99 }), item.id],
    );

    const again = await startJig({ home });
    const after = await until(again, item.id, (i) => i.status === 'stopped');
    expect(after.stop.kind).toBe('infra');
    expect(after.stop.reason).toBe(
      "the item's saved state cannot be read: the walk was written by a release of Jig that stores version 99",
    );
    expect(after.current_node).toBe('work');
    const needs = (await events(again, item.id)).filter((e) => e.type === 'work_item_needs_human');
    expect(needs.at(-1)).toMatchObject({
      by: 'jig',
      node: 'work',
      payload: { kind: 'infra', reason: after.stop.reason },
    });
    // The walk on disk is left as it was: nothing froze a new one over it.
    const [after2] = await dbAll<{ walk: string }>(home, 'SELECT walk FROM work_items WHERE id = ?', [
      item.id,
    ]);
    expect(JSON.parse(after2!.walk).v).toBe(99);
    // The item still answers on the API, saying what it can.
    const got = await http(`${again.url}/api/work-items/${item.id}`);
    expect(got.status).toBe(200);
  });
});
