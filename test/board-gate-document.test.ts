import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bigDocumentSetup } from './helpers/big-document.js';
import { noChromium, openBrowser, shot, type Session } from './helpers/browser.js';
import { fileItem, until } from './helpers/engine.js';
import { cleanupAll, http, type JigProcess } from './helpers/server.js';

/*
 * Issue 40, point 4, on the board: a gate whose document Jig will not read (over 10 MiB) says so
 * instead of "This gate shows no document", and its Approve is off, as the server refuses it.
 */

let jig: JigProcess;
let repo: string;
let s: Session;

beforeAll(async () => {
  if (noChromium) return;
  ({ jig, repo } = await bigDocumentSetup());
  s = await openBrowser();
}, 60_000);
afterAll(async () => {
  await s?.close();
  await cleanupAll();
});

describe.skipIf(noChromium !== null)(
  `a gate document that cannot be read, in chromium${noChromium ? ` (skipped: ${noChromium})` : ''}`,
  () => {
    it('is named with its problem, and Approve is off', async () => {
      const item = await fileItem(jig, repo, 'big');
      const first = await until(jig, item.id, (i) => i.status === 'stopped' && i.stop?.kind === 'gate', 600);
      const page = await s.context.newPage();
      await page.goto(`${jig.url}/work-items/${item.id}`);
      const alert = page.getByRole('alert').filter({ hasText: 'cannot be shown' });
      await alert.waitFor();
      expect(await alert.innerText()).toBe(
        'The spec document cannot be shown: .jig/docs/spec.md is larger than 10485760 bytes. Approve waits until it can be read; reject to have it written again.',
      );
      expect(await page.getByText('This gate shows no document.').count()).toBe(0);
      const approve = page.getByRole('button', { name: 'Approve' });
      expect(await approve.isDisabled()).toBe(true);
      expect(await approve.getAttribute('title')).toBe('The document cannot be read: it cannot be approved');
      await shot(page, 'item-gate-unreadable-document');
      // Reject stays open: the document is written again.
      await page.getByRole('button', { name: 'Reject…' }).click();
      await page.getByLabel('What should change (the next agent reads this)').fill('Keep it under a page.');
      await page.getByRole('button', { name: 'Reject', exact: true }).click();
      await until(jig, item.id, (i) => i.gate_request !== first.gate_request, 300);
      await page.close();
      await http(`${jig.url}/api/work-items/${item.id}/cancel`, { method: 'POST', body: { reason: 'done' } });
      expect(s.problems).toEqual([]);
    });
  },
);
