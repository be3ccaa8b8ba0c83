import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noChromium, openBrowser, shot, type Session } from './helpers/browser.js';
import { engineSetup, until } from './helpers/engine.js';
import { holdUntil } from './helpers/hold.js';
import { cleanupAll, http, type JigProcess } from './helpers/server.js';

/*
 * Items that come after others, on the board in a real browser (issue 46): the composer picks a
 * dependency by title, the blocked item shows under Not started with what it waits on, the peek
 * draws the arrows, and Unblock starts it.
 */

let jig: JigProcess;
let repo: string;
let s: Session;
let holds: string;
const api = (method: string, path: string, body?: unknown) => http(`${jig.url}${path}`, { method, body });

beforeAll(async () => {
  if (noChromium) return;
  holds = mkdtempSync(join(tmpdir(), 'jig-board-deps-'));
  const held = `
nodes:
  - id: work
    kind: exec
    tasks:
      - id: wait
        kind: subprocess
        run: '${holdUntil(`"${holds}/go-$JIG_WORK_ITEM_ID"`)}'
`;
  ({ jig, repo } = await engineSetup({ held }));
  s = await openBrowser();
}, 60_000);
afterAll(async () => {
  await s?.close();
  await cleanupAll();
});

describe.skipIf(noChromium !== null)(
  `dependencies on the board${noChromium ? ` (skipped: ${noChromium})` : ''}`,
  () => {
    it('files an item after another from the composer, shows it blocked with what it waits on, and unblocks it', async () => {
      const first = await api('POST', '/api/work-items', {
        title: 'Add the orders table',
        repo,
        chain: 'held',
        start: true,
      });
      expect(first.status, first.text).toBe(201);
      const a = first.json;
      const { page } = s;
      await page.goto(`${jig.url}/`);
      await page.getByRole('heading', { name: /Needs you/ }).waitFor();
      await page.keyboard.press('c');
      const dialog = page.getByRole('dialog', { name: 'New work item' });
      await dialog.waitFor();
      await dialog.getByLabel('Title').fill('Fill the orders table');
      await dialog.getByLabel('Chain').selectOption('held');
      await dialog.getByPlaceholder('name or id').fill('orders');
      await dialog.getByRole('button', { name: '+ Add the orders table' }).click();
      await dialog
        .getByRole('list', { name: 'Items it comes after' })
        .getByText('Add the orders table')
        .waitFor();
      await expect
        .poll(() => dialog.getByRole('status').innerText())
        .toBe('1 of 1 nodes run · 0 gates · starts after 1 item');
      await shot(page, 'composer-after');
      await dialog.getByRole('button', { name: /Create and start/ }).click();
      await page.getByRole('heading', { name: 'Fill the orders table' }).waitFor();
      const id = page.url().split('/').pop()!;
      const b = (await api('GET', `/api/work-items/${id}`)).json;
      expect([b.status, b.waiting_on, b.dependencies]).toEqual([
        'blocked',
        [{ id: a.id, title: a.title, status: 'running' }],
        [{ id: a.id, title: a.title, status: 'running' }],
      ]);
      // The item page draws the arrow from what it comes after.
      const arrows = page.getByRole('group', { name: 'Dependencies' });
      await arrows.getByRole('link', { name: 'Add the orders table' }).waitFor();
      await shot(page, 'item-blocked');

      await page.goto(`${jig.url}/`);
      const row = page.locator(`[data-item="${id}"]`);
      await row.waitFor();
      expect(await page.locator(`.vrow:has([data-item="${id}"])`).getAttribute('data-group')).toBe(
        'not_started',
      );
      expect(await row.locator('.status').innerText()).toBe('blocked');
      expect(await row.locator('.row-reason').innerText()).toBe('waits on Add the orders table');
      await row.locator('.row-title').click();
      const peek = page.getByRole('complementary', { name: 'Peek' });
      await peek.getByRole('group', { name: 'Dependencies' }).getByText('Add the orders table').waitFor();
      await shot(page, 'board-blocked');

      // The dependency has the arrow the other way.
      const aView = (await api('GET', `/api/work-items/${a.id}`)).json;
      expect(aView.dependents).toEqual([{ id, title: 'Fill the orders table', status: 'blocked' }]);

      await row.getByRole('button', { name: 'Unblock Fill the orders table' }).click();
      await until(jig, id, (i) => i.status === 'running');
      await expect.poll(() => row.locator('.status').innerText()).toBe('running');
      expect((await api('GET', `/api/work-items/${id}`)).json.dependencies).toBeUndefined();
      for (const x of [a.id, id]) writeFileSync(join(holds, `go-${x}`), '');
      await until(jig, id, (i) => i.status === 'completed');
      await until(jig, a.id, (i) => i.status === 'completed');
    });
  },
);
