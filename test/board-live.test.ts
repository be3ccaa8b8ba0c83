import type { Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentSetup } from './helpers/agents.js';
import { noChromium, openBrowser, shot, type Session } from './helpers/browser.js';
import { until } from './helpers/engine.js';
import { GATED_CHAIN } from './helpers/gated-chain.js';
import { cleanupAll, http, type JigProcess } from './helpers/server.js';

/*
 * The board follows the event stream without reading its list again: an item that moves (started,
 * at its gate, approved, done) is read on its own and put in place in the list the board holds
 * (web/src/item-cache.ts). Only a new item has the list read again. The test counts the page's
 * reads of the list route while one item moves through a chain, driven by the API alone.
 */

let jig: JigProcess;
let repo: string;
let s: Session;
const api = (method: string, path: string, body?: unknown) => http(`${jig.url}${path}`, { method, body });

beforeAll(async () => {
  if (noChromium) return;
  ({ jig, repo } = await agentSetup({ gated: GATED_CHAIN }));
  s = await openBrowser();
}, 60_000);
afterAll(async () => {
  await s?.close();
  await cleanupAll();
});

/** The page's reads of the item list (`GET /api/work-items?…`) and of single items. */
function watchReads(page: Session['page']) {
  const reads = { list: 0, item: 0, listInFlight: 0 };
  const isList = (r: Request) => r.method() === 'GET' && new URL(r.url()).pathname === '/api/work-items';
  const isItem = (r: Request) =>
    r.method() === 'GET' && /^\/api\/work-items\/[^/]+$/.test(new URL(r.url()).pathname);
  page.on('request', (r) => {
    if (isList(r)) {
      reads.list++;
      reads.listInFlight++;
    }
    if (isItem(r)) reads.item++;
  });
  const done = (r: Request) => {
    if (isList(r)) reads.listInFlight--;
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return reads;
}

describe.skipIf(noChromium !== null)(
  `the board live in chromium${noChromium ? ` (skipped: ${noChromium})` : ''}`,
  () => {
    it('moves an item through its chain from events alone, without reading the list again', async () => {
      const { page } = s;
      const reads = watchReads(page);
      await page.goto(`${jig.url}/`);
      await page.getByRole('heading', { name: /Needs you/ }).waitFor();
      await page.locator('.live-live').waitFor();

      // A new item: the list is read again to take it in.
      const listBefore = reads.list;
      const filed = await api('POST', '/api/work-items', { title: 'Moves live', repo, chain: 'gated' });
      expect(filed.status, filed.text).toBe(201);
      const id: string = filed.json.id;
      const row = page.locator(`[data-item="${id}"]`);
      await row.waitFor();
      expect(reads.list).toBeGreaterThan(listBefore);
      // Every read of the list under way has answered, and a batch's quiet time has passed.
      await expect.poll(() => reads.listInFlight).toBe(0);
      await page.waitForTimeout(500);

      const lists = reads.list;
      const items = reads.item;
      const groupOf = () => page.locator(`.vrow:has([data-item="${id}"])`).getAttribute('data-group');
      const statusOf = () => row.locator('.status').innerText();
      expect(await groupOf()).toBe('not_started');

      // Started through the API: it runs, then waits at its gate.
      expect((await api('POST', `/api/work-items/${id}/resume`)).status).toBe(200);
      await until(jig, id, (i) => i.status === 'stopped' && i.stop?.kind === 'gate');
      await expect.poll(groupOf).toBe('needs');
      await expect.poll(() => row.locator('.row-reason').innerText()).toBe('approve review');
      await expect.poll(() => row.locator('.ticks').getAttribute('aria-label')).toBe('at node 2 of 3');
      await shot(page, 'board-live-gate');

      // Approved through the API: it runs the last node and is done.
      expect((await api('POST', `/api/work-items/${id}/gates/review/approve`, {})).status).toBe(200);
      await until(jig, id, (i) => i.status === 'completed');
      await expect.poll(groupOf).toBe('done');
      await expect.poll(statusOf).toBe('done');
      await shot(page, 'board-live-done');

      // Each move was a read of that one item; the list was never read again.
      expect(reads.list).toBe(lists);
      expect(reads.item).toBeGreaterThan(items);
      expect(s.problems).toEqual([]);
    });
  },
);
