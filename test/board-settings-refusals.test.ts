import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noChromium, openBrowser, type Session } from './helpers/browser.js';
import { cleanupAll, http, startJig, type JigProcess } from './helpers/server.js';

/*
 * Settings shows the server's refusals with the server's own words: a webhook secret notify.yaml
 * would not load, and a policy draft whose file changed on disk since it began (409), rebased and
 * then published. The browser logs each refused request, and nothing else.
 */

let jig: JigProcess;
let s: Session;

beforeAll(async () => {
  if (noChromium) return;
  jig = await startJig();
  s = await openBrowser();
}, 60_000);
afterAll(async () => {
  await s?.close();
  await cleanupAll();
});

describe.skipIf(noChromium !== null)(
  `settings refusals in chromium${noChromium ? ` (skipped: ${noChromium})` : ''}`,
  () => {
    it('shows a refused webhook save with the server message and writes nothing', async () => {
      const { page } = s;
      const before = await http(`${jig.url}/api/notify`);
      await page.goto(`${jig.url}/settings/notifications`);
      await page.getByLabel('Signing secret (16 characters or more)').fill('short');
      await page.getByRole('button', { name: 'Save' }).click();
      const same = await http(`${jig.url}/api/notify`, { method: 'PUT', body: { secret: 'short' } });
      expect(same.status).toBe(422);
      expect(same.json.code).toBe('notify_invalid');
      await page.getByRole('alert').filter({ hasText: same.json.detail }).waitFor();
      expect((await http(`${jig.url}/api/notify`)).json).toEqual(before.json);
    });

    it('says a publish is stale, rebases on the file on disk and publishes', async () => {
      const { page } = s;
      const file = join(jig.home, 'config', 'policy.yaml');
      await page.goto(`${jig.url}/settings/policy`);
      const daily = page.getByLabel('Budget per day ($)');
      await daily.fill('60');
      await daily.press('Enter');
      await page.getByRole('status').filter({ hasText: 'Draft: 1 change' }).waitFor();
      // A hand edit after the draft began.
      appendFileSync(file, '# edited by hand\n');
      await page.getByRole('button', { name: 'Review & publish' }).click();
      await page
        .getByRole('region', { name: 'Review and publish' })
        .getByRole('button', { name: 'Publish' })
        .click();
      const alert = page
        .getByRole('alert')
        .filter({ hasText: 'published since this draft began: policy.yaml' });
      await alert.waitFor();
      expect(readFileSync(file, 'utf8')).toContain('# edited by hand');
      expect((await http(`${jig.url}/api/policy`)).json.budget.daily_usd).toBe(50);

      await alert.getByRole('button', { name: 'Rebase on the file on disk' }).click();
      await alert.waitFor({ state: 'detached' });
      await page
        .getByRole('region', { name: 'Review and publish' })
        .getByRole('button', { name: 'Publish' })
        .click();
      await page.getByRole('status').filter({ hasText: 'Published policy.yaml.' }).waitFor();
      expect((await http(`${jig.url}/api/policy`)).json.budget).toEqual({ work_item_usd: 10, daily_usd: 60 });
      const text = readFileSync(file, 'utf8');
      expect(parse(text).budget.daily_usd).toBe(60);
      // As the screen says: the draft's text won, the hand edit is gone.
      expect(text).not.toContain('# edited by hand');
    });

    it('logged only the refused requests and asked no other host for anything', () => {
      expect(s.problems).toHaveLength(2);
      expect(s.problems[0]).toMatch(/status of 422 .*\/api\/notify\)$/);
      expect(s.problems[1]).toMatch(/status of 409 .*\/api\/drafts\/policy\/policy\/publish\)$/);
      expect(s.foreign).toEqual([]);
    });
  },
);
