import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentSetup, FAKES } from './helpers/agents.js';
import { noChromium, openBrowser, shot, type Session } from './helpers/browser.js';
import { git } from './helpers/git.js';
import { cleanupAll, http, tempHome, type JigProcess } from './helpers/server.js';
import { DEFAULTS } from './helpers/templates.js';

/*
 * Templates › Library, Harnesses and Repos (docs/board/templates.md) on the seeded config with the
 * fake agent CLIs: what the screens show against what the API answers, and each change made on a
 * screen read back from the server and the files on disk.
 */

let jig: JigProcess;
let home: string;
let s: Session;

beforeAll(async () => {
  if (noChromium) return;
  home = tempHome();
  cpSync(DEFAULTS, join(home, 'config'), { recursive: true });
  ({ jig } = await agentSetup({}, { home }));
  s = await openBrowser();
}, 60_000);
afterAll(async () => {
  await s?.close();
  await cleanupAll();
});

const config = (file: string): string => readFileSync(join(home, 'config', file), 'utf8');

describe.skipIf(noChromium !== null)(
  `templates in chromium${noChromium ? ` (skipped: ${noChromium})` : ''}`,
  () => {
    it('lists the library with usage counts and opens a node with what it reaches and builds on', async () => {
      const { page } = s;
      const api = await http(`${jig.url}/api/templates/library/nodes.implementation`);
      expect(api.status).toBe(200);
      expect(api.json.used_by).toEqual({ chains: ['default', 'merge-request', 'quick-task'], repos: [] });
      await page.goto(`${jig.url}/templates/library`);
      const row = page.getByRole('button', { name: /^implementation used by 3 chains/ });
      await row.click();
      await page.waitForURL(/\/templates\/library\/nodes\.implementation$/);
      const detail = page.getByRole('complementary');
      await detail.getByRole('heading', { name: 'nodes implementation' }).waitFor();
      expect(
        await detail.getByRole('list', { name: 'Reaches' }).getByRole('listitem').allInnerTexts(),
      ).toEqual(['default', 'merge-request', 'quick-task']);
      expect(
        await detail.getByRole('list', { name: 'Builds on' }).getByRole('listitem').allInnerTexts(),
      ).toEqual(['tasks.implementer']);
      expect(parse(await detail.getByLabel('As written').innerText())).toEqual(api.json.written);
      await shot(page, 'templates-library');

      // A library task shows what its agent reads at launch.
      await page.goto(`${jig.url}/templates/library/tasks.spec_author`);
      await page.getByRole('button', { name: 'Show what it reads' }).click();
      const parts = page.getByRole('list', { name: 'What the task reads' });
      await parts.waitFor();
      const preview = await http(
        `${jig.url}/api/templates/steering/preview?chain=default&task=spec.main.author`,
      );
      expect(preview.status).toBe(200);
      const origins = await parts.locator('code').allInnerTexts();
      expect(origins).toEqual(preview.json.parts.map((p: { origin: string }) => p.origin));
    });

    it('refuses a library.yaml that would break a chain, at its line, and writes nothing', async () => {
      const { page } = s;
      const before = config('library.yaml');
      await page.goto(`${jig.url}/templates/library/yaml`);
      const text = page.getByRole('textbox', { name: 'library.yaml text' });
      await expect.poll(() => text.inputValue()).toBe(before);
      const broken = before.replace(/^ {2}implementer:$/m, '  implementor:');
      // What the server says of this text (a refused save writes nothing), to compare with the screen.
      const refusal = await http(`${jig.url}/api/templates/library`, {
        method: 'PUT',
        body: { text: broken },
      });
      expect(refusal.status).toBe(422);
      expect(refusal.json.code).toBe('template_invalid');
      const [p] = refusal.json.problems;
      expect(p).toMatchObject({ file: 'library.yaml', field: 'extends' });
      await text.fill(broken);
      await page.getByRole('button', { name: 'Save library.yaml' }).click();
      const alert = page.getByRole('alert');
      await alert.waitFor();
      const shown = await alert.innerText();
      expect(shown).toContain(refusal.json.detail);
      expect(shown).toContain(`library.yaml:${p.line}:${p.col} extends ${p.message}`);
      // The line the problem is at, from the text as typed.
      expect(shown).toContain(`${p.line} | ${broken.split('\n')[p.line - 1]}`);
      expect(config('library.yaml')).toBe(before);
      // Back to the text as read, a save goes through and the file keeps it.
      await page.getByRole('button', { name: 'Revert' }).click();
      await text.fill(`${before}# kept as typed\n`);
      await page.getByRole('button', { name: 'Save library.yaml' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved and reloaded.' }).waitFor();
      expect(await page.getByRole('alert').count()).toBe(0);
      expect(config('library.yaml')).toBe(`${before}# kept as typed\n`);
    });

    it('changes harness settings through the draft and publishes them', async () => {
      const { page } = s;
      await page.goto(`${jig.url}/templates/harnesses`);
      const claude = page.getByRole('table', { name: 'Agent CLIs' }).getByRole('row', { name: /^claude/ });
      await claude.getByText('installed', { exact: true }).waitFor();
      expect(await claude.innerText()).toContain(join(FAKES, 'claude'));
      await page.getByRole('combobox', { name: 'Access of gemini' }).selectOption('never');
      await page.getByRole('region', { name: 'Draft' }).waitFor();
      // The box shows what the draft holds, so it turns once the server has answered.
      await page.getByRole('checkbox', { name: 'amp enabled' }).click();
      await expect.poll(() => page.getByRole('checkbox', { name: 'amp enabled' }).isChecked()).toBe(false);
      // A profile's model for one provider, saved as one op.
      await page.getByRole('textbox', { name: 'strong model for codex' }).fill('gpt-5');
      await page.getByRole('button', { name: 'Save strong' }).click();
      await expect
        .poll(
          async () =>
            (await http(`${jig.url}/api/drafts/harnesses/harnesses`)).json.result.resolved.profiles.strong
              .providers.codex,
        )
        .toEqual({ model: 'gpt-5', effort: 'medium' });
      // Nothing reaches the files before the publish.
      expect(parse(config('harnesses.yaml')).harnesses.amp.enabled).toBe(true);
      await page.getByRole('button', { name: 'Review & publish' }).click();
      const changes = page.getByRole('list', { name: 'Changes' });
      await changes.waitFor();
      // Every row the draft answers, each with its file when the path is not the file.
      const rows = (await http(`${jig.url}/api/drafts/harnesses/harnesses`)).json.result.changes.map(
        (c: { path: string; summary: string; file?: string }) =>
          `${c.path} ${c.summary}${c.file && c.file !== c.path ? ` (${c.file})` : ''}`,
      );
      expect(rows).toContain('access.gemini available -> never (policy.yaml)');
      expect(rows).toContain('profiles.strong changed: providers (harnesses.yaml)');
      expect(await changes.getByRole('listitem').allInnerTexts()).toEqual(rows);
      await shot(page, 'templates-harnesses');
      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Published' }).waitFor();

      expect(parse(config('harnesses.yaml')).harnesses.amp.enabled).toBe(false);
      expect(parse(config('harnesses.yaml')).profiles.strong.providers.codex).toEqual({
        model: 'gpt-5',
        effort: 'medium',
      });
      const policy = parse(config('policy.yaml'));
      expect(policy.maxima.allowed_harnesses).toEqual([
        'claude',
        'codex',
        'cursor',
        'opencode',
        'kilo',
        'qwen',
        'copilot',
        'droid',
        'amp',
        'antigravity',
        'auggie',
      ]);
      const after = await http(`${jig.url}/api/drafts/harnesses/harnesses`);
      expect(after.json.draft).toBe(false);
      const states = Object.fromEntries(
        after.json.result.resolved.harnesses.map((h: { id: string; state: string; enabled: boolean }) => [
          h.id,
          [h.state, h.enabled],
        ]),
      );
      expect(states).toEqual({
        claude: ['available', true],
        codex: ['available', true],
        gemini: ['never', true],
        cursor: ['available', true],
        opencode: ['available', true],
        kilo: ['available', true],
        qwen: ['available', true],
        copilot: ['available', true],
        droid: ['available', true],
        amp: ['available', false],
        antigravity: ['available', true],
        auggie: ['available', true],
      });
      expect(await page.getByRole('combobox', { name: 'Access of gemini' }).inputValue()).toBe('never');
      await expect.poll(() => page.getByRole('region', { name: 'Draft' }).count()).toBe(0);
    });

    it("shows a refused op with the server's message and discards a draft", async () => {
      const { page } = s;
      const policyBefore = config('policy.yaml');
      const refused = await http(`${jig.url}/api/drafts/harnesses/harnesses/ops?preview=1`, {
        method: 'POST',
        body: { ops: [{ op: 'remove_profile', name: 'strong' }] },
      });
      expect(refused.status).toBe(422);
      await page.goto(`${jig.url}/templates/harnesses`);
      await page.getByRole('button', { name: 'Remove strong' }).click();
      const alert = page.getByRole('alert');
      await alert.waitFor();
      expect(await alert.innerText()).toBe(refused.json.detail);
      expect((await http(`${jig.url}/api/drafts/harnesses/harnesses`)).json.draft).toBe(false);

      await page.getByRole('combobox', { name: 'Access of codex' }).selectOption('override');
      await page.getByRole('region', { name: 'Draft' }).waitFor();
      expect((await http(`${jig.url}/api/drafts/harnesses/harnesses`)).json.draft).toBe(true);
      await page.getByRole('button', { name: 'Discard draft' }).click();
      await expect.poll(() => page.getByRole('region', { name: 'Draft' }).count()).toBe(0);
      expect(await page.getByRole('combobox', { name: 'Access of codex' }).inputValue()).toBe('available');
      expect((await http(`${jig.url}/api/drafts/harnesses/harnesses`)).json.draft).toBe(false);
      expect(config('policy.yaml')).toBe(policyBefore);
    });

    it('connects a repository from the Repos tab and then disables it', async () => {
      const { page } = s;
      const dir = join(tempHome('jig-widget-'), 'widget');
      mkdirSync(dir);
      git(dir, 'init', '-q', '-b', 'main');
      writeFileSync(
        join(dir, 'package.json'),
        JSON.stringify({ name: 'widget', scripts: { test: 'vitest' } }),
      );
      git(dir, 'add', '-A');
      git(dir, 'commit', '-q', '-m', 'initial');
      const probe = await http(`${jig.url}/api/repos/probe`, { method: 'POST', body: { path: dir } });
      expect(probe.status).toBe(200);

      await page.goto(`${jig.url}/templates/repos`);
      await page.getByRole('button', { name: 'Connect repo' }).click();
      await page.getByLabel('Path of a git checkout on this machine').fill(dir);
      await page.getByRole('button', { name: 'Look at it' }).click();
      const tests = page.getByLabel('Test command (empty: the repository has no tests)');
      await tests.waitFor();
      expect(await tests.inputValue()).toBe(probe.json.test_command.value);
      await tests.fill('npm test -- --run');
      await page.getByRole('checkbox', { name: 'No setup needed' }).check();
      await page.getByRole('button', { name: 'Connect widget' }).click();
      await page.getByRole('status').filter({ hasText: 'Connected widget.' }).waitFor();
      const enabled = page.getByRole('checkbox', { name: 'widget enabled' });
      expect(await enabled.isChecked()).toBe(true);

      const one = async () => {
        const r = await http(`${jig.url}/api/repos`);
        return r.json.repos.find((x: { path: string }) => x.path === dir);
      };
      expect(await one()).toMatchObject({
        name: 'widget',
        enabled: true,
        managed: true,
        test_command: 'npm test -- --run',
        setup_command: '',
      });
      await shot(page, 'templates-repos');
      await enabled.click();
      await expect.poll(async () => (await one())?.enabled).toBe(false);
      await expect.poll(() => enabled.isChecked()).toBe(false);
      expect(parse(config('repos.yaml')).repos.find((e: { path: string }) => e.path === dir).enabled).toBe(
        false,
      );

      // Removed, it is gone from repos.yaml; the other repository stays.
      await page.getByRole('button', { name: 'Remove widget' }).click();
      await page.getByRole('button', { name: 'Remove for good' }).click();
      await expect.poll(() => page.getByRole('checkbox', { name: 'widget enabled' }).count()).toBe(0);
      expect(await one()).toBeUndefined();
      const left = await http(`${jig.url}/api/repos`);
      expect(left.json.repos.map((r: { name: string }) => r.name)).toEqual(['repo']);
    });

    it('logged no console errors and asked no other host for anything', () => {
      // The two refusals the tests asked for on purpose: Chromium logs every 4xx it fetched.
      const refused = (path: string) =>
        `console: Failed to load resource: the server responded with a status of 422 (Unprocessable Entity) (${jig.url}${path})`;
      expect(s.problems).toEqual([
        refused('/api/templates/library'),
        refused('/api/drafts/harnesses/harnesses/ops'),
      ]);
      expect(s.foreign).toEqual([]);
    });
  },
);
