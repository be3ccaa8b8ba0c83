import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noChromium, openBrowser, shot, type Session } from './helpers/browser.js';
import { cleanupAll, http, startJig, type JigProcess } from './helpers/server.js';

/*
 * About from the sidebar's foot (docs/board.md): the versions, an update check against a feed and
 * the command that applies it, the home and the store, and Copy diagnostics, whose text holds none
 * of the credentials the home has. And the addresses that moved since 1.x land on their screens.
 */

const PASSWORD = 'correct horse battery staple';
const FEED_PASSWORD = 'feed-pa55word';

let jig: JigProcess;
let feed: Server;
let s: Session;

beforeAll(async () => {
  if (noChromium) return;
  feed = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ name: 'jig', 'dist-tags': { latest: '2.1.0' } }));
  });
  await new Promise<void>((r) => feed.listen(0, '127.0.0.1', r));
  const port = (feed.address() as AddressInfo).port;
  jig = await startJig({ env: { JIG_UPDATE_FEED: `http://updates:${FEED_PASSWORD}@127.0.0.1:${port}/jig` } });
  const set = await http(`${jig.url}/api/access/password`, { method: 'PUT', body: { password: PASSWORD } });
  expect(set.status, set.text).toBe(200);
  s = await openBrowser();
}, 60_000);
afterAll(async () => {
  await s?.close();
  feed?.close();
  await cleanupAll();
});

describe.skipIf(noChromium !== null)(
  `About and old addresses in chromium${noChromium ? ` (skipped: ${noChromium})` : ''}`,
  () => {
    it('opens About from the foot, checks for updates, and copies diagnostics without a credential', async () => {
      const { page, context } = s;
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: jig.url });
      await page.goto(`${jig.url}/`);
      await page.locator('.sidebar-foot').getByRole('button', { name: 'v2.0.0 · About' }).click();
      const about = page.getByRole('dialog', { name: 'About Jig' });
      await about.getByText('2.0.0, running and installed').waitFor();
      await expect
        .poll(() => about.locator('dt:text-is("Store") + dd').textContent())
        .toBe(`SQLite ${join(jig.home, 'run', 'jig.db')}`);
      expect(await about.locator('dt:text-is("Home") + dd').textContent()).toBe(jig.home);
      expect(await about.getByTestId('about-update').textContent()).toBe('not checked yet');

      await about.getByRole('button', { name: 'Check for updates' }).click();
      await about.getByText(/^2\.1\.0 available on stable \(checked /).waitFor();
      await about.getByText('jig admin update --yes', { exact: true }).waitFor();

      await about.getByRole('button', { name: 'Copy diagnostics' }).click();
      await about.getByRole('status').getByText('Copied. Paste it into the bug report.').waitFor();
      const text = (await about.getByLabel('Diagnostics').textContent()) ?? '';
      expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(text);
      expect(text).toMatch(/^Jig diagnostics\nversion: +2\.0\.0\n/m);
      expect(text).toContain(`store:      sqlite ${join(jig.home, 'run', 'jig.db')} (schema `);
      expect(text).toContain(`home:       ${jig.home}\n`);
      expect(text).toContain('access:     password set; allowed hosts: none\n');
      expect(text).toMatch(/^update: +2\.1\.0 available on stable/m);
      expect(text).toMatch(/^items: +none \(archived 0\)$/m);

      const run = (name: string) => readFileSync(join(jig.home, 'run', name), 'utf8').trim();
      const hash = /password_hash: (\S+)/.exec(
        readFileSync(join(jig.home, 'config', 'access.yaml'), 'utf8'),
      )![1]!;
      for (const secret of [run('mcp-token'), run('trigger-token'), hash, PASSWORD, FEED_PASSWORD, 'scrypt'])
        expect(text, 'a credential in the diagnostics').not.toContain(secret);
      await shot(page, 'about');

      await about.getByRole('button', { name: 'Close' }).click();
      await about.waitFor({ state: 'hidden' });
    });

    it('lands the old addresses on their screens', async () => {
      const { page } = s;
      await page.goto(`${jig.url}/settings/intake`);
      await page.getByRole('heading', { name: 'Auto-intake', level: 2 }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/settings/auto-intake');
      expect(await page.getByRole('link', { name: 'Auto-intake' }).getAttribute('aria-current')).toBe('page');
      await shot(page, 'settings-auto-intake');

      // 1.x kept the chain editor under Settings.
      await page.goto(`${jig.url}/settings/chains`);
      await page.getByRole('region', { name: 'Chains' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/templates/chains');
      await shot(page, 'old-settings-chains');

      await page.goto(`${jig.url}/settings/notify`);
      await page.getByRole('heading', { name: 'Webhook' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/settings/notifications');
      // A redirect replaces the old address: Back leaves the moved screen, it does not bounce.
      await page.goBack();
      expect(new URL(page.url()).pathname).toBe('/templates/chains');
    });

    it('opens About from More on a phone', async () => {
      const phone = await s.context.newPage();
      await phone.setViewportSize({ width: 390, height: 844 });
      await phone.goto(`${jig.url}/more`);
      await phone.getByRole('button', { name: 'About Jig' }).click();
      await phone
        .getByRole('dialog', { name: 'About Jig' })
        .getByText('2.0.0, running and installed')
        .waitFor();
      await shot(phone, 'about-phone');
      await phone.close();
    });

    it('logged no console errors and asked no other host for anything', () => {
      expect(s.problems).toEqual([]);
      expect(s.foreign).toEqual([]);
    });
  },
);
