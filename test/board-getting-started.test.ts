import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docShot, noChromium, openBrowser, type Session } from './helpers/browser.js';
import { until } from './helpers/engine.js';
import { makeRepo } from './helpers/git.js';
import { cleanupAll, http, runJig, startJig, type JigProcess } from './helpers/server.js';

/*
 * docs/getting-started.md, walked in the browser: a fresh home, the wizard connects a repository,
 * a first item on the `manual` chain waits at its gate, is approved, and completes. The pictures the
 * page shows are this test's (`JIG_DOC_SHOTS=1`: `node scripts/docs-screenshots.mjs`).
 */

let jig: JigProcess;
let s: Session;

beforeAll(async () => {
  if (noChromium) return;
  jig = await startJig();
  s = await openBrowser({ width: 1100, height: 700 });
}, 60_000);
afterAll(async () => {
  await s?.close();
  await cleanupAll();
});

describe.skipIf(noChromium !== null)(
  `getting started in chromium${noChromium ? ` (skipped: ${noChromium})` : ''}`,
  () => {
    it('connects a repository, files a first item, approves its gate, and sees it done', async () => {
      const project = makeRepo({ 'package.json': '{"name":"greeter","scripts":{"test":"node -e 0"}}\n' });
      const { page } = s;
      await page.goto(`${jig.url}/`);
      await page.getByRole('heading', { name: 'Get started with Jig' }).waitFor();
      await page.getByLabel('Path of a git checkout on this machine').fill(project);
      await page.getByRole('button', { name: 'Look at it' }).click();
      await page.getByText('Tests:').waitFor();
      await docShot(page, 'getting-started-connect');
      await page.getByRole('button', { name: 'Connect repo' }).click();
      await page.getByRole('heading', { name: '2. Chains and limits' }).waitFor();
      await page.getByLabel('Title').fill('My first item');
      await page.getByRole('button', { name: 'Create paused' }).click();
      await page.getByRole('heading', { name: 'My first item' }).waitFor();
      const id = page.url().split('/').pop()!;
      expect((await http(`${jig.url}/api/work-items/${id}`)).json).toMatchObject({
        chain: 'manual',
        status: 'paused',
      });

      expect(
        (await http(`${jig.url}/api/work-items/${id}/resume`, { method: 'POST', body: {} })).status,
      ).toBe(200);
      await until(jig, id, (i) => i.status === 'stopped' && i.stop?.kind === 'gate');
      await page.reload();
      const approve = page.getByRole('button', { name: 'Approve', exact: true });
      await approve.waitFor();
      await page.locator('.react-flow__node').first().waitFor();
      await docShot(page, 'getting-started-gate');
      // The change a person makes in the item's worktree (`jig repo path ID` prints where it is).
      const where = await runJig(['repo', 'path', id], { JIG_HOME: jig.home });
      expect(where.code, where.stderr).toBe(0);
      writeFileSync(join(where.stdout.trim(), 'greeting.txt'), 'Bonjour\n');
      await approve.click();
      await until(jig, id, (i) => i.status === 'completed');
      await page.reload();
      await page.getByRole('heading', { name: 'Where the change is' }).waitFor();
      await page.locator('.react-flow__node').first().waitFor();
      await docShot(page, 'getting-started-done');

      await page.goto(`${jig.url}/`);
      await page.getByText('My first item').first().waitFor();
      await docShot(page, 'getting-started-board');
      expect(s.problems).toEqual([]);
    });
  },
);
