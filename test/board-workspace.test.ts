import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noChromium, openBrowser, shot, type Session } from './helpers/browser.js';
import { cleanupAll, http } from './helpers/server.js';
import { workspaceWorld, type WorkspaceWorld } from './helpers/workspace.js';

/*
 * The composer files on a workspace (docs/workspaces.md): the workspace is offered beside the
 * repositories, its members are ticked, and an unticked one is left out of the item.
 */

const CHAIN = `
nodes:
  - id: build
    kind: exec
    tasks:
      - id: edit
        kind: subprocess
        scope: each_repository
        run: 'true'
`;

let w: WorkspaceWorld;
let s: Session;

beforeAll(async () => {
  if (noChromium) return;
  w = await workspaceWorld({ ws: CHAIN });
  s = await openBrowser();
}, 60_000);
afterAll(async () => {
  await s?.close();
  await cleanupAll();
});

describe.skipIf(noChromium !== null)(
  `the composer on a workspace${noChromium ? ` (skipped: ${noChromium})` : ''}`,
  () => {
    it('offers the workspace, ticks every member, and files on the ticked ones', async () => {
      const { page } = s;
      await page.goto(`${w.jig.url}/`);
      await page.getByRole('heading', { name: /Needs you/ }).waitFor();
      await page.keyboard.press('c');
      const dialog = page.getByRole('dialog', { name: 'New work item' });
      await dialog.waitFor();
      await dialog.getByLabel('Title').fill('Across both');
      await dialog.getByLabel('Chain').selectOption('ws');
      // No member list for a plain repository.
      expect(await dialog.getByRole('group', { name: 'Members' }).count()).toBe(0);
      await dialog
        .locator('label', { hasText: /^Repository/ })
        .locator('select')
        .selectOption('all');
      const members = dialog.getByRole('group', { name: 'Members' });
      await members.waitFor();
      expect(await members.getByRole('checkbox', { name: /api/ }).isChecked()).toBe(true);
      expect(await members.getByRole('checkbox', { name: /web/ }).isChecked()).toBe(true);
      await members.getByRole('checkbox', { name: /api/ }).uncheck();
      await expect.poll(() => dialog.getByRole('status').innerText()).toBe('1 of 1 nodes run · 0 gates');
      await shot(page, 'composer-workspace');
      await dialog.getByRole('button', { name: 'Create paused' }).click();
      await page.getByRole('heading', { name: 'Across both' }).waitFor();
      const id = page.url().split('/').pop()!;
      const item = (await http(`${w.jig.url}/api/work-items/${id}`)).json;
      expect(item.repo).toBe(w.root);
      expect(item.workspace.name).toBe('all');
      expect(item.workspace.members.map((m: any) => m.name)).toEqual(['web']);
      expect(s.problems).toEqual([]);
      expect(s.foreign).toEqual([]);
    });
  },
);
