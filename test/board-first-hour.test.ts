import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { noChromium, openBrowser, shot, type Session } from './helpers/browser.js';
import { until } from './helpers/engine.js';
import { makeRepo } from './helpers/git.js';
import { cleanupAll, http, startJig, type JigProcess } from './helpers/server.js';

/*
 * What a new user tripped over in their first hour (issue 48): search that takes typing at once,
 * a console that stays clean on ordinary pages, the chain editor and New item on a phone, and a
 * board that says when the server is away.
 */

let jig: JigProcess;
let repo: string;
let s: Session;

/** Every answer of 400 or more and every request that failed, as the page saw them. */
function failures(page: Page): string[] {
  const out: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 400) out.push(`${r.status()} ${r.request().method()} ${r.url()}`);
  });
  page.on('requestfailed', (r) => {
    // A read still in flight when the test goes to the next page is cancelled by the navigation.
    if (r.failure()?.errorText === 'net::ERR_ABORTED') return;
    out.push(`failed ${r.method()} ${r.url()}: ${r.failure()?.errorText}`);
  });
  return out;
}

async function file(title: string, more: object = {}): Promise<any> {
  const r = await http(`${jig.url}/api/work-items`, {
    method: 'POST',
    body: { title, repo, chain: 'manual', ...more },
  });
  expect(r.status, r.text).toBe(201);
  return r.json;
}

beforeAll(async () => {
  if (noChromium) return;
  jig = await startJig();
  repo = makeRepo();
  const r = await http(`${jig.url}/api/repos`, {
    method: 'POST',
    body: { path: repo, test_command: '', setup_command: '' },
  });
  expect(r.status, r.text).toBe(201);
  s = await openBrowser();
}, 60_000);
afterAll(async () => {
  await s?.close();
  await cleanupAll();
});

describe.skipIf(noChromium !== null)(
  `the first hour in chromium${noChromium ? ` (skipped: ${noChromium})` : ''}`,
  () => {
    it('types into search right after Ctrl+K, and after the sidebar’s Search', async () => {
      const { page } = s;
      await file('Find me by typing');
      await page.goto(`${jig.url}/`);
      await page.getByRole('heading', { name: /Not started/ }).waitFor();
      await page.keyboard.press('Control+k');
      const palette = page.getByRole('dialog', { name: 'Search' });
      await palette.waitFor();
      // No click: the keys go where the focus is.
      await page.keyboard.type('find me');
      expect(await palette.getByRole('combobox').inputValue()).toBe('find me');
      await palette.getByRole('option', { name: /Find me by typing/ }).waitFor();
      await shot(page, 'first-hour-search');
      await page.keyboard.press('Escape');
      await palette.waitFor({ state: 'hidden' });
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('button', { name: /Search/ })
        .click();
      await palette.waitFor();
      await page.keyboard.type('typing');
      expect(await palette.getByRole('combobox').inputValue()).toBe('typing');
      await page.keyboard.press('Escape');
    });

    it('asks only for what exists: no failed request on the board, at a gate without a document, before a worktree', async () => {
      const page = await s.context.newPage();
      const failed = failures(page);
      const mark = s.problems.length;
      // The manual chain's first node is a gate that shows no document.
      const gate = await file('Waits at a gate', {
        start: true,
        description:
          'Fix `login()` **now**.\n\n<script>window.pwned = true</script><img src=x onerror="window.pwned = true">',
      });
      await until(jig, gate.id, (i) => i.status === 'stopped' && i.stop?.kind === 'gate');
      // A base branch the repository lacks: the item starts and stops before its worktree is cut.
      const early = await file('Stops before its worktree', { start: true, base_branch: 'no-such-branch' });
      await until(jig, early.id, (i) => i.status === 'stopped');
      // The item says what the board may ask for.
      const read = async (id: string) => (await http(`${jig.url}/api/work-items/${id}`)).json;
      expect(await read(gate.id)).toMatchObject({ has_worktree: true, gate_document: null });
      expect(await read(early.id)).toMatchObject({ has_worktree: false, started_at: expect.any(String) });
      await page.goto(`${jig.url}/`);
      await page.getByRole('heading', { name: /Needs you/ }).waitFor();
      await page.goto(`${jig.url}/?peek=${gate.id}`);
      await page.getByRole('tab', { name: 'Overview' }).waitFor();
      await page.goto(`${jig.url}/work-items/${gate.id}`);
      await page.getByRole('heading', { name: 'Waits at a gate' }).waitFor();
      await page.getByRole('button', { name: 'Approve' }).waitFor();
      await page.getByText('This gate shows no document.').waitFor();
      // Its message is Markdown: the backticks are code, not text.
      const message = page.locator('.gate .markdown code', { hasText: 'jig repo path <id>' });
      await message.waitFor();
      // The brief too, and what HTML it held neither shows nor runs.
      await page.locator('.brief code', { hasText: 'login()' }).waitFor();
      expect(await page.locator('.brief strong').innerText()).toBe('now');
      // The HTML in it is text: shown as written, neither markup nor run.
      expect(await page.locator('.brief script, .brief img').count()).toBe(0);
      expect(await page.evaluate('window.pwned')).toBeUndefined();
      expect(await page.locator('.brief').innerText()).toContain('<script>window.pwned = true</script>');
      await shot(page, 'first-hour-gate-no-document');
      // Its review page: a comment is news in the success colours, and Approve needs no document to wait for.
      await page.goto(`${jig.url}/work-items/${gate.id}/review`);
      const bar = page.getByRole('region', { name: 'Your review' });
      const finish = bar.getByRole('dialog', { name: 'Finish review' });
      await bar.getByRole('button', { name: 'Finish review' }).click();
      await finish.getByLabel('Summary').fill('Looked at it.');
      await finish.getByRole('button', { name: 'Submit review' }).click();
      const recorded = page.getByRole('status').filter({ hasText: 'Comment recorded.' });
      await recorded.waitFor();
      expect(await recorded.getAttribute('class')).toContain('banner-ok');
      await shot(page, 'first-hour-comment-recorded');
      await bar.getByRole('button', { name: 'Finish review' }).click();
      await finish.getByRole('radio', { name: /^Approve/ }).check();
      await finish.getByRole('button', { name: 'Submit review' }).click();
      await page.getByRole('status').filter({ hasText: 'Approved: change passed.' }).waitFor();
      await page.goto(`${jig.url}/work-items/${early.id}`);
      await page.getByRole('heading', { name: 'Stops before its worktree' }).waitFor();
      await page
        .getByText(/no-such-branch/)
        .first()
        .waitFor();
      await page.goto(`${jig.url}/work-items/${early.id}/review`);
      await page.getByRole('heading', { name: /Stops before its worktree/ }).waitFor();
      // Whatever the pages asked after they drew has landed.
      await page.waitForLoadState('networkidle');
      await shot(page, 'first-hour-before-worktree');
      await page.close();
      expect(failed).toEqual([]);
      expect(s.problems.slice(mark)).toEqual([]);
    });

    it('on a phone: the chain editor draws its graph, and New item in the bottom bar files an item', async () => {
      const phone = await s.context.newPage();
      await phone.setViewportSize({ width: 390, height: 844 });
      const failed = failures(phone);
      await phone.goto(`${jig.url}/templates/chains/default`);
      const graph = phone.getByLabel('Chain graph');
      await graph.locator('.react-flow__node').first().waitFor();
      const box = await graph.boundingBox();
      expect(box?.width).toBeGreaterThan(300);
      expect(box?.height).toBeGreaterThan(200);
      // Drawn at a zoom its labels can be read at (the eight nodes fitted whole were not), from its start.
      const scale = async () =>
        Number(
          /scale\(([\d.]+)\)/.exec(
            (await graph.locator('.react-flow__viewport').getAttribute('style')) ?? '',
          )?.[1],
        );
      await expect.poll(scale).toBeGreaterThanOrEqual(0.75);
      expect(await phone.locator('.react-flow__node[data-id="spec"]').isVisible()).toBe(true);
      // The inspector is on the screen, below the graph, not cut off at its right.
      await phone.locator('.react-flow__node[data-id="spec_approval"]').click();
      const inspector = phone.locator('.ce-inspector');
      await inspector.waitFor();
      const ib = await inspector.boundingBox();
      expect(ib!.x).toBeGreaterThanOrEqual(0);
      expect(ib!.x + ib!.width).toBeLessThanOrEqual(390);
      expect(await phone.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await shot(phone, 'first-hour-phone-chain-editor');
      await inspector.scrollIntoViewIfNeeded();
      await shot(phone, 'first-hour-phone-chain-inspector');

      await phone.goto(`${jig.url}/`);
      const bar = phone.getByRole('navigation', { name: 'Main' });
      await bar.getByRole('link', { name: 'New item' }).click();
      const form = phone.getByRole('region', { name: 'New work item' });
      await form.getByLabel('Title').fill('Filed from the bottom bar');
      await shot(phone, 'first-hour-phone-new-item');
      await form.getByRole('button', { name: 'Create paused' }).click();
      await phone.getByRole('heading', { name: 'Filed from the bottom bar' }).waitFor();
      const items = (await http(`${jig.url}/api/work-items`)).json.items;
      expect(items.map((i: any) => i.title)).toContain('Filed from the bottom bar');
      await phone.close();
      expect(failed).toEqual([]);
    });

    it('says actions are paused while the server is away, and clears when it is back', async () => {
      const first = await startJig();
      const port = new URL(first.url).port;
      const page = await s.context.newPage();
      await page.goto(`${first.url}/`);
      await page.locator('.live-live').waitFor();
      // While the server is away the browser logs each refused connection: those belong to this test.
      const mark = s.problems.length;
      await first.stop();
      const away = page.getByRole('alert').filter({ hasText: "Jig's server is not answering" });
      await away.waitFor();
      expect(await away.innerText()).toContain('Actions are paused until it is back');
      expect(await page.locator('.shell.away').count()).toBe(1);
      await shot(page, 'first-hour-server-away');
      const second = await startJig({ home: first.home, args: ['--port', port] });
      await page.locator('.live-live').waitFor();
      await away.waitFor({ state: 'detached' });
      expect(await page.locator('.shell.away').count()).toBe(0);
      await page.close();
      await second.stop();
      const during = s.problems.splice(mark);
      const refused = new RegExp(
        String.raw`net::ERR_CONNECTION_(REFUSED|RESET)|status of 503 \(Service Unavailable\) \(http://127\.0\.0\.1:${port}/api/`,
      );
      expect(during.filter((p) => !refused.test(p))).toEqual([]);
    });

    it('logged no console errors and asked no other host for anything', () => {
      expect(s.problems).toEqual([]);
      expect(s.foreign).toEqual([]);
    });
  },
);
