import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentSetup } from './helpers/agents.js';
import { noChromium, openBrowser, type Session } from './helpers/browser.js';
import { makeRepo } from './helpers/git.js';
import { cleanupAll, http, type JigProcess } from './helpers/server.js';

/*
 * Templates › Repos › Edit sends only what the person changed: a repository whose test command is
 * undecided stays undecided when only its default chain changes (an empty field is no decision),
 * and a default chain deleted since does not refuse an edit of something else.
 */

let jig: JigProcess;
let home: string;
let s: Session;
let loose: string;

const one = async () => {
  const r = await http(`${jig.url}/api/repos`);
  return r.json.repos.find((x: { path: string }) => x.path === loose);
};

beforeAll(async () => {
  if (noChromium) return;
  ({ jig, home } = await agentSetup({}));
  loose = makeRepo({ 'README.md': '# nothing to detect\n' });
  const connected = await http(`${jig.url}/api/repos`, {
    method: 'POST',
    body: { path: loose, name: 'loose' },
  });
  expect(connected.status, connected.text).toBe(201);
  s = await openBrowser();
}, 60_000);
afterAll(async () => {
  await s?.close();
  await cleanupAll();
});

describe.skipIf(noChromium !== null)(
  `editing a repository in chromium${noChromium ? ` (skipped: ${noChromium})` : ''}`,
  () => {
    it('changes the default chain alone, leaving an undecided test command undecided', async () => {
      expect(await one()).toMatchObject({ test_command: null, setup_command: '', enabled: false });
      const { page } = s;
      await page.goto(`${jig.url}/templates/repos`);
      const name = (await one()).name as string;
      await page.getByRole('button', { name: `Edit ${name}` }).click();
      const form = page.getByRole('form', { name: `Edit ${name}` });
      await form.getByLabel('Default chain').selectOption('manual');
      await form.getByRole('button', { name: `Save ${name}` }).click();
      await expect.poll(async () => (await one()).default_chain).toBe('manual');
      expect(await one()).toMatchObject({ test_command: null, setup_command: '', enabled: false });
    });

    it('edits the test command of a repository whose default chain was deleted since', async () => {
      const yaml = join(home, 'config', 'repos.yaml');
      writeFileSync(yaml, readFileSync(yaml, 'utf8').replace('default_chain: manual', 'default_chain: gone'));
      const { page } = s;
      await page.goto(`${jig.url}/templates/repos`);
      const name = (await one()).name as string;
      await page.getByRole('button', { name: `Edit ${name}` }).click();
      const form = page.getByRole('form', { name: `Edit ${name}` });
      await form.getByLabel('Test command (empty: no tests)').fill('true');
      await form.getByRole('button', { name: `Save ${name}` }).click();
      await expect.poll(async () => (await one()).test_command).toBe('true');
      expect(await one()).toMatchObject({ default_chain: 'gone', setup_command: '' });
    });

    it('logged no console errors and asked no other host for anything', () => {
      expect(s.problems).toEqual([]);
      expect(s.foreign).toEqual([]);
    });
  },
);
