import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noChromium, openBrowser, shot, type Session } from './helpers/browser.js';
import { cleanupAll, http, startJig, type JigProcess } from './helpers/server.js';

/*
 * Issue 48: two config files that do not load (and a notify.yaml with a short secret) are named
 * above every page with each problem's file:line:col, what runs meanwhile and a link to the file's
 * editor; the Templates row of a broken chain lists its problems, not only their count.
 */

let jig: JigProcess;
let s: Session;
const cfg = (file: string) => join(jig.home, 'config', file);

beforeAll(async () => {
  if (noChromium) return;
  jig = await startJig();
  s = await openBrowser();
  const quick = readFileSync(cfg('chains/quick-task.yaml'), 'utf8');
  writeFileSync(
    cfg('chains/quick-task.yaml'),
    quick.replace('    kind: exec # runs', '    kidn: exec # runs'),
  );
  const def = readFileSync(cfg('chains/default.yaml'), 'utf8');
  writeFileSync(cfg('chains/default.yaml'), def.replace('reject_to: plan\n', 'reject_to: nowhere\n'));
  writeFileSync(cfg('notify.yaml'), 'enabled: true\nurl: https://hooks.example.com/jig\nsecret: short\n');
  expect((await http(`${jig.url}/api/apply/reload`, { method: 'POST' })).status).toBe(422);
}, 60_000);
afterAll(async () => {
  await s?.close();
  await cleanupAll();
});

describe.skipIf(noChromium !== null)(
  `config files that do not load, in chromium${noChromium ? ` (skipped: ${noChromium})` : ''}`,
  () => {
    it('names each file and problem in a banner above the board, linking to its editor', async () => {
      const { page } = s;
      await page.goto(`${jig.url}/`);
      const banner = page.getByRole('alert', { name: 'Config files that do not load' });
      await banner.getByText('3 config files do not load').waitFor();
      const text = await banner.innerText();
      expect(text).toContain('chains/default.yaml: the running version is kept until it loads.');
      expect(text).toContain(
        'chains/default.yaml:42:16: plan_approval.reject_to: reject_to `nowhere`: no node has that id',
      );
      expect(text).toContain(
        'chains/quick-task.yaml:18:5: verify.kidn: unknown key `kidn`; did you mean `kind`?',
      );
      expect(text).toContain('notify.yaml: no notification is sent until it loads.');
      expect(text).toContain('notify.yaml:3:9: secret: must be at least 16 characters');
      await shot(page, 'config-refused-banner');
      await banner.getByRole('link', { name: 'notify.yaml' }).click();
      await page.waitForURL(/\/settings\/notifications$/);
      await banner.getByRole('link', { name: 'chains/quick-task.yaml' }).click();
      await page.waitForURL(/\/templates\/chains\/quick-task$/);
    });

    it('lists a broken chain’s problems on its Templates row', async () => {
      const { page } = s;
      await page.goto(`${jig.url}/templates/chains`);
      const list = page.getByRole('list', { name: 'Problems of quick-task' });
      await list.waitFor();
      expect(await list.innerText()).toBe(
        'chains/quick-task.yaml:18:5: verify.kidn: unknown key `kidn`; did you mean `kind`?',
      );
      expect(await page.getByRole('list', { name: 'Problems of default' }).innerText()).toContain(
        'chains/default.yaml:42:16',
      );
      await shot(page, 'config-refused-templates');
    });

    it('logged no console error and asked no other host for anything', () => {
      expect(s.problems).toEqual([]);
      expect(s.foreign).toEqual([]);
    });
  },
);
