import { afterAll, expect, it } from 'vitest';
import { engineSetup, fileItem } from './helpers/engine.js';
import { cleanupAll, http, startJig } from './helpers/server.js';

afterAll(cleanupAll);

/*
 * The engine suite runs in both projects (vitest.config.ts): this says each run is on the store it
 * claims, so a postgres project whose servers quietly fell back to SQLite cannot pass for one.
 */
it("serves from the project's store", async () => {
  const jig = await startJig();
  const health = (await http(`${jig.url}/api/health`)).json;
  expect(health.store).toBe(process.env.JIG_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite');
});

const chain = `
nodes:
  - id: work
    kind: exec
    tasks:
      - id: ok
        kind: subprocess
        run: "true"
`;

/* Times are a timestamptz on PostgreSQL (migration 32): the list's cursor carries one back. */
it('pages the item list by the cursor it gave, and refuses a cursor whose time it did not write', async () => {
  const { jig, repo } = await engineSetup({ once: chain });
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push((await fileItem(jig, repo, 'once', false)).id);
  const list = (q: string) => http(`${jig.url}/api/work-items?repo=${encodeURIComponent(repo)}&limit=2${q}`);
  const first = await list('');
  expect(first.status).toBe(200);
  expect(first.json.items.map((i: { id: string }) => i.id)).toEqual([ids[2], ids[1]]);
  const second = await list(`&cursor=${first.json.next_cursor}`);
  expect({ ids: second.json.items.map((i: { id: string }) => i.id), next: second.json.next_cursor }).toEqual({
    ids: [ids[0]],
    next: null,
  });
  const forged = Buffer.from(`yesterday|${ids[1]}`).toString('base64url');
  const bad = await list(`&cursor=${forged}`);
  expect({ status: bad.status, body: bad.json }).toEqual({
    status: 422,
    body: expect.objectContaining({
      code: 'validation_failed',
      detail: 'query.cursor: not a cursor this server gave',
    }),
  });
});
