import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentSetup } from './helpers/agents.js';
import { noChromium, openBrowser, shot, type Session } from './helpers/browser.js';
import { until } from './helpers/engine.js';
import { GATED_CHAIN } from './helpers/gated-chain.js';
import { cleanupAll, http, type JigProcess } from './helpers/server.js';

/*
 * Notifications in this browser (docs/notifications.md): turned on at the sidebar's foot, a gate
 * raises a Web Notification while the board is open (the browser's Notification recorded: headless
 * Chromium shows none); turned off, nothing.
 */

let jig: JigProcess;
let repo: string;
let s: Session;

async function file(title: string): Promise<any> {
  const r = await http(`${jig.url}/api/work-items`, {
    method: 'POST',
    body: { title, repo, chain: 'gated', start: true },
  });
  expect(r.status, r.text).toBe(201);
  return r.json;
}

beforeAll(async () => {
  if (noChromium) return;
  ({ jig, repo } = await agentSetup({ gated: GATED_CHAIN }));
  s = await openBrowser();
}, 60_000);
afterAll(async () => {
  await s?.close();
  await cleanupAll();
});

describe.skipIf(noChromium !== null)(
  `notifications in chromium${noChromium ? ` (skipped: ${noChromium})` : ''}`,
  () => {
    it('notifies in this browser, once turned on, when an item waits at a gate', async () => {
      const page = await s.context.newPage();
      // The browser's Notification, recorded: headless Chromium shows none.
      await page.addInitScript({
        content: `
          window.__notes = [];
          class Recorded {
            static permission = 'default';
            static requestPermission() { Recorded.permission = 'granted'; return Promise.resolve('granted'); }
            constructor(title, o) { this.onclick = null; window.__notes.push({ title, body: o.body, tag: o.tag }); }
          }
          Object.defineProperty(window, 'Notification', { value: Recorded });`,
      });
      await page.goto(`${jig.url}/`);
      await page.getByRole('button', { name: 'Notify me in this browser' }).click();
      await page.getByRole('button', { name: 'Notifications on in this browser' }).waitFor();
      const waiting = await file('Ping this browser');
      await until(jig, waiting.id, (i) => i.status === 'stopped' && i.stop?.kind === 'gate');
      await expect
        .poll(() => page.evaluate<unknown[]>('window.__notes'))
        .toEqual([
          { title: 'Ping this browser waits for your approval', body: 'Look at out.txt', tag: waiting.id },
        ]);
      await shot(page, 'notify-on');
      // Turned off, it stays quiet.
      await page.getByRole('button', { name: 'Notifications on in this browser' }).click();
      await page.getByRole('button', { name: 'Notify me in this browser' }).waitFor();
      await page.close();
    });

    it('logged no console errors and asked no other host for anything', () => {
      expect(s.problems).toEqual([]);
      expect(s.foreign).toEqual([]);
    });
  },
);
