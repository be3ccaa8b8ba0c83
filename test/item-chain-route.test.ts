import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATED_CHAIN } from './helpers/gated-chain.js';
import { engineSetup, until } from './helpers/engine.js';
import { cleanupAll, http, type JigProcess } from './helpers/server.js';

/** `GET /api/work-items/{id}/chain`: what the board's graph draws. */
let jig: JigProcess;
let repo: string;
beforeAll(async () => {
  ({ jig, repo } = await engineSetup({ gated: GATED_CHAIN }));
});
afterAll(cleanupAll);

describe('the chain of an item', () => {
  it("answers the chain file's nodes before the start and the item's own after it", async () => {
    const filed = await http(`${jig.url}/api/work-items`, {
      method: 'POST',
      body: { title: 'Graph me', repo, chain: 'gated' },
    });
    const id = filed.json.id;
    const before = await http(`${jig.url}/api/work-items/${id}/chain`);
    expect(before.status).toBe(200);
    expect(before.json.source).toBe('template');
    expect(before.json.chain).toBe('gated');
    expect(before.json.nodes.map((n: any) => [n.id, n.kind])).toEqual([
      ['build', 'exec'],
      ['review', 'gate'],
      ['finish', 'exec'],
    ]);
    expect(before.json.nodes[1]).toMatchObject({ reject_to: 'build', message: 'Look at out.txt' });
    expect(before.json.nodes[0].steps[0].tasks[0]).toMatchObject({
      path: 'build.main.touch',
      kind: 'subprocess',
    });

    await http(`${jig.url}/api/work-items/${id}/resume`, { method: 'POST', body: {} });
    await until(jig, id, (i) => i.status === 'stopped');
    const after = await http(`${jig.url}/api/work-items/${id}/chain`);
    expect(after.json.source).toBe('item');
    expect(after.json.nodes).toEqual(before.json.nodes);

    const none = await http(`${jig.url}/api/work-items/nosuchid/chain`);
    expect(none.status).toBe(404);
    expect(none.json.code).toBe('item_not_found');
  });
});
