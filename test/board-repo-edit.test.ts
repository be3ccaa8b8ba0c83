import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentSetup } from './helpers/agents.js';
import { noChromium, openBrowser, shot, type Session } from './helpers/browser.js';
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

    it("sets a repository's own sandbox through the repos draft; a problem shows under it; published, repos.yaml has it", async () => {
      const { page } = s;
      const yaml = join(home, 'config', 'repos.yaml');
      const entry = () =>
        (parse(readFileSync(yaml, 'utf8')).repos as { path: string; sandbox?: unknown }[]).find(
          (r) => r.path === loose,
        );
      const publish = async () => {
        await section.getByRole('button', { name: 'Review & publish' }).click();
        const review = page.getByRole('region', { name: 'Review and publish' });
        await review.getByRole('button', { name: 'Publish' }).click();
        await page.getByRole('status').filter({ hasText: 'Published repos.yaml.' }).waitFor();
      };
      // The test before left a default chain that is gone: a problem of the file, which no publish
      // of it would pass. Put back first.
      const fixed = await http(`${jig.url}/api/repos?path=${encodeURIComponent(loose)}`, {
        method: 'PATCH',
        body: { default_chain: 'manual' },
      });
      expect(fixed.status, fixed.text).toBe(200);
      await page.goto(`${jig.url}/templates/repos`);
      const name = (await one()).name as string;
      await page.getByRole('button', { name: `Edit ${name}` }).click();
      const section = page.getByRole('region', { name: `Sandbox of ${name}` });
      const now = section.getByTestId('repo-sandbox-now');
      await now.waitFor();
      // The suite's homes are seeded without an instance sandbox (JIG_SANDBOX_DEFAULT=none).
      expect(await now.innerText()).toBe(
        'None set here or in policy.yaml: its tasks run with the server’s reach, unless their chain sets a sandbox.',
      );
      // A malformed host: the server's problem shows under the form, and nothing can be published.
      await section.getByLabel('Kind').selectOption('bubblewrap');
      const hosts = section.getByLabel('Hosts tasks may reach, one per line (host, host:port or *.domain)');
      await hosts.fill('https://registry.npmjs.org/');
      await section.getByRole('button', { name: `Set ${name}'s sandbox` }).click();
      const problem = section.getByRole('alert').filter({ hasText: 'https://registry.npmjs.org/' });
      await problem.waitFor();
      expect(entry()?.sandbox).toBeUndefined();
      await hosts.fill('registry.npmjs.org');
      await section.getByRole('button', { name: `Set ${name}'s sandbox` }).click();
      await expect
        .poll(async () => now.innerText())
        .toBe('Its own: bubblewrap; network: registry.npmjs.org.');
      expect(await problem.count()).toBe(0);
      await section.scrollIntoViewIfNeeded();
      await shot(page, 'templates-repo-sandbox');
      await publish();
      expect(entry()?.sandbox).toEqual({ kind: 'bubblewrap', network: { allow: ['registry.npmjs.org'] } });
      // Removed again, through a draft of its own.
      await section.getByRole('button', { name: 'Remove it' }).click();
      await expect
        .poll(async () => now.innerText())
        .toBe(
          'None set here or in policy.yaml: its tasks run with the server’s reach, unless their chain sets a sandbox.',
        );
      await publish();
      expect(entry()?.sandbox).toBeUndefined();
    });

    it('logged no console errors and asked no other host for anything', () => {
      expect(s.problems).toEqual([]);
      expect(s.foreign).toEqual([]);
    });
  },
);
