import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harnessesYaml } from './helpers/agents.js';
import { makeCollection, releaseAddon, writeAddon, type AddonSpec } from './helpers/addons.js';
import { noChromium, openBrowser, shot, type Session } from './helpers/browser.js';
import { cleanupAll, http, startJig, tempHome, type JigProcess } from './helpers/server.js';

/*
 * Templates › Add-ons (docs/board/addons.md) against a directory collection: the review and the
 * install, copying an add-on's chain and task into your own files, a disable the server refuses
 * while they use it, an update read as a diff and applied, and an add-on that cannot be installed.
 * Each screen is compared with what the API answers.
 */

let jig: JigProcess;
let s: Session;
let coll: string;

/** The release add-on with its task built on a base task, so a copy shows a qualified `extends`. */
function release(over: { version?: string; prompt?: string } = {}): AddonSpec {
  const spec = releaseAddon(over);
  const files = { ...spec.files };
  files['library.yaml'] = files['library.yaml']!.replace(
    '  notes_writer:\n    kind: agent\n    harness: claude\n',
    '  base:\n    kind: agent\n    harness: claude\n    prompt: Follow the house style.\n  notes_writer:\n    extends: base\n',
  );
  return { ...spec, files };
}

const BAD: AddonSpec = {
  version: '0.1.0',
  files: {
    'library.yaml': "tasks:\n  lint:\n    kind: subprocess\n    run: 'npm run lint'\n",
  },
};

/** In the page (the tests' tsconfig has no DOM types): whether the page, or a box in it, scrolls sideways. */
const SIDEWAYS = `[
  document.documentElement.scrollWidth > window.innerWidth,
  ...[...document.querySelectorAll('.page, .page *')]
    .filter((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible')
    .map((e) => e.className),
]`;
/** Whether the review's main button is on screen and nothing covers it: it can be pressed as the page is. */
const IN_REACH = `(() => {
  const b = document.querySelector('.addon-actions button.primary');
  const r = b.getBoundingClientRect();
  return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === b;
})()`;

beforeAll(async () => {
  if (noChromium) return;
  const home = tempHome();
  mkdirSync(join(home, 'config'), { recursive: true });
  writeFileSync(join(home, 'config', 'harnesses.yaml'), harnessesYaml());
  jig = await startJig({ home });
  coll = makeCollection('acme', { release: release() });
  s = await openBrowser();
}, 60_000);
afterAll(async () => {
  await s?.close();
  await cleanupAll();
});

describe.skipIf(noChromium !== null)(
  `add-ons in chromium${noChromium ? ` (skipped: ${noChromium})` : ''}`,
  () => {
    it('adds a directory collection, reads the review of an add-on and installs it', async () => {
      const { page } = s;
      await page.goto(`${jig.url}/templates/addons`);
      await page.getByRole('link', { name: 'Add-ons' }).waitFor();
      const source = page.getByLabel("Source: a directory on the server's machine, or a git URL");

      // A source that is not a collection: the server's words at the field.
      const missing = join(coll, 'nope');
      const refused = await http(`${jig.url}/api/addons/collections`, {
        method: 'POST',
        body: { source: missing },
      });
      expect(refused.status).toBe(422);
      await source.fill(missing);
      await page.getByRole('button', { name: 'Add collection' }).click();
      const atField = page.getByRole('form', { name: 'Add collection' }).getByRole('alert');
      await expect.poll(() => atField.innerText()).toBe(refused.json.detail);

      await source.fill(coll);
      await page.getByRole('button', { name: 'Add collection' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: 'Added collection acme: it lists 1 add-on.' })
        .waitFor();
      const listed = page.getByRole('table', { name: 'Add-ons of acme' });
      expect(await listed.getByRole('row', { name: /^release/ }).innerText()).toContain('not installed');

      const api = await http(`${jig.url}/api/addons/review`, {
        method: 'POST',
        body: { addon: 'release', collection: 'acme' },
      });
      expect(api.status).toBe(200);
      await page.getByRole('button', { name: 'Review & install release' }).click();
      const panel = page.getByRole('region', { name: 'Install release 1.0.0 from acme as release' });
      await panel.waitFor();
      expect(await panel.getByRole('list', { name: 'Reach' }).getByRole('listitem').allInnerTexts()).toEqual(
        api.json.reach.lines,
      );
      expect(api.json.reach.lines).toContain('gate chain release:ship › approve');
      expect(await panel.getByLabel('Text of skill release:notes').innerText()).toContain(
        'List user-visible changes, newest first.',
      );
      expect(await panel.getByLabel('Text of library task release:notes_writer').innerText()).toBe(
        'Write the release notes for this change.',
      );
      await shot(page, 'addons-review');
      await panel.getByRole('button', { name: 'Install', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Installed release 1.0.0 as release.' }).waitFor();

      const row = page
        .getByRole('table', { name: 'Installed add-ons' })
        .getByRole('row', { name: /^release/ });
      expect(await row.getByText('ok', { exact: true }).count()).toBe(1);
      expect(await page.getByRole('checkbox', { name: 'release enabled' }).isChecked()).toBe(true);
      const addons = (await http(`${jig.url}/api/addons`)).json;
      expect(addons.addons).toMatchObject([
        { namespace: 'release', version: '1.0.0', state: 'ok', enabled: true, chains: ['release:ship'] },
      ]);
      expect(addons.collections[0].addons[0].installed_as).toEqual(['release']);
      expect(await listed.getByRole('row', { name: /^release/ }).innerText()).not.toContain('not installed');
    });

    it("copies the add-on's chain to my library and publishes it in the chain editor", async () => {
      const { page } = s;
      await page.getByRole('button', { name: 'What release offers' }).click();
      await page.getByRole('button', { name: 'Copy release:ship to my library' }).click();
      const id = page.getByRole('textbox', { name: 'Id of the copy of release:ship' });
      expect(await id.inputValue()).toBe('ship');
      await page.getByRole('button', { name: 'Copy and open' }).click();
      await page.waitForURL(/\/templates\/chains\/ship$/);
      await page.getByRole('region', { name: 'Chain ship' }).waitFor();
      await page.getByRole('button', { name: 'Review & publish' }).click();
      const review = page.getByRole('region', { name: 'Review and publish' });
      await review.getByRole('button', { name: 'Publish' }).click();
      await page.getByRole('status').filter({ hasText: 'Published chains/ship.yaml' }).waitFor();
      const chains = (await http(`${jig.url}/api/templates/chains`)).json.chains;
      expect(chains.find((c: { id: string }) => c.id === 'ship')).toMatchObject({
        resolves: true,
        problems: [],
      });
    });

    it("copies the add-on's task into library.yaml, its names qualified as in the add-on", async () => {
      const { page } = s;
      await page.goto(`${jig.url}/templates/addons`);
      await page.getByRole('button', { name: 'What release offers' }).click();
      const offers = page.getByRole('group', { name: 'What release offers' });
      expect(
        await offers.getByRole('region', { name: 'release tasks' }).getByRole('code').allInnerTexts(),
      ).toEqual(['release:base', 'release:notes_writer']);
      await page.getByRole('button', { name: 'Copy release:notes_writer to my library' }).click();
      expect(
        await page.getByRole('textbox', { name: 'Name of the copy of release:notes_writer' }).inputValue(),
      ).toBe('notes_writer');
      await page.getByRole('button', { name: 'Copy and publish' }).click();
      const done = page
        .getByRole('status')
        .filter({ hasText: 'Copied release:notes_writer to tasks.notes_writer in library.yaml.' });
      await done.waitFor();
      await shot(page, 'addons-offers');
      const lib = (await http(`${jig.url}/api/templates/library`)).json;
      const task = lib.components.find((c: { ref: string }) => c.ref === 'tasks.notes_writer');
      expect(task.written).toMatchObject({
        extends: 'release:base',
        skill: 'release:notes',
        steering: ['release:tone'],
      });
      expect((await http(`${jig.url}/api/drafts`)).json).toEqual([]);
      await done.getByRole('link', { name: 'tasks.notes_writer' }).click();
      await page.waitForURL(/\/templates\/library\/tasks\.notes_writer$/);
    });

    it("shows the server's refusal to disable an add-on my files use, in its row", async () => {
      const { page } = s;
      await page.goto(`${jig.url}/templates/addons`);
      const enabled = page.getByRole('checkbox', { name: 'release enabled' });
      await enabled.click();
      const alert = page.getByRole('table', { name: 'Installed add-ons' }).getByRole('alert');
      await alert.waitFor();
      const api = await http(`${jig.url}/api/addons/release`, { method: 'PATCH', body: { enabled: false } });
      expect(api.status).toBe(409);
      expect(api.json.code).toBe('addon_in_use');
      expect(await alert.innerText()).toBe(api.json.detail);
      expect(api.json.detail).toContain('chains/ship.yaml');
      expect(await enabled.isChecked()).toBe(true);
      expect((await http(`${jig.url}/api/addons`)).json.addons[0].enabled).toBe(true);
    });

    it('checks for updates, shows the changed prompt as a diff and updates', async () => {
      const { page } = s;
      writeAddon(
        coll,
        'release',
        release({ version: '1.1.0', prompt: 'Write the notes, newest change first.' }),
      );
      await page.getByRole('button', { name: 'Check for updates' }).click();
      await page.getByRole('status').filter({ hasText: '1 update waiting.' }).waitFor();
      const row = page
        .getByRole('table', { name: 'Installed add-ons' })
        .getByRole('row', { name: /^release/ });
      await row.getByText('update 1.1.0').waitFor();
      const api = await http(`${jig.url}/api/addons/release/update?fetch=0`);
      expect(api.status).toBe(200);
      expect(api.json).toMatchObject({
        action: 'update',
        from: { version: '1.0.0' },
        to: { version: '1.1.0' },
      });

      await page.getByRole('button', { name: 'Review update of release' }).click();
      const panel = page.getByRole('region', { name: 'Update release 1.0.0 → 1.1.0' });
      await panel.waitFor();
      const changed = api.json.content.find(
        (c: { where: string }) => c.where === 'library task release:notes_writer',
      );
      expect(changed.change).toBe('changed');
      const diff = panel.getByLabel('Diff of library task release:notes_writer');
      expect(await diff.locator('.addon-del').allInnerTexts()).toEqual([
        '-Write the release notes for this change.',
      ]);
      expect(await diff.locator('.addon-add').allInnerTexts()).toEqual([
        '+Write the notes, newest change first.',
      ]);
      await panel.getByText(`${api.json.unchanged} unchanged`).waitFor();
      await shot(page, 'addons-update');

      // Changed again while the review was open: the update is refused, and the new review read.
      const final = 'Write the notes, newest change first, in short lines.';
      writeAddon(coll, 'release', release({ version: '1.1.0', prompt: final }));
      await panel.getByRole('button', { name: 'Update', exact: true }).click();
      const stale = panel.getByRole('alert');
      await stale.waitFor();
      expect(await stale.innerText()).toMatch(/^add-on release changed since the review that was read/);
      expect((await http(`${jig.url}/api/addons`)).json.addons[0].version).toBe('1.0.0');
      await panel.getByRole('button', { name: 'Read the review again' }).click();
      await expect.poll(() => diff.locator('.addon-add').allInnerTexts()).toEqual([`+${final}`]);
      await panel.getByRole('button', { name: 'Update', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Updated release 1.1.0 as release.' }).waitFor();
      await expect.poll(() => row.getByRole('cell').nth(1).innerText()).toBe('1.1.0');
      expect((await http(`${jig.url}/api/addons`)).json.addons[0].version).toBe('1.1.0');
      expect((await http(`${jig.url}/api/addons/updates?fetch=0`)).json.updates).toEqual([]);
    });

    it('shows the problems of an add-on that cannot be installed, with no Install button', async () => {
      const { page } = s;
      makeCollection(
        'acme',
        {
          release: release({
            version: '1.1.0',
            prompt: 'Write the notes, newest change first, in short lines.',
          }),
          bad: BAD,
        },
        coll,
      );
      await page.goto(`${jig.url}/templates/addons`);
      const api = await http(`${jig.url}/api/addons/review`, {
        method: 'POST',
        body: { addon: 'bad', collection: 'acme' },
      });
      expect(api.status).toBe(200);
      expect(api.json.problems.length).toBeGreaterThan(0);
      await page.getByRole('button', { name: 'Review & install bad' }).click();
      const panel = page.getByRole('region', { name: 'Install bad 0.1.0 from acme as bad' });
      const problems = panel.getByRole('note', { name: 'Problems' });
      await problems.waitFor();
      expect(await problems.getByRole('listitem').allInnerTexts()).toEqual(
        api.json.problems.map(
          (p: { file: string; line: number | null; message: string }) =>
            `${p.file}${p.line === null ? '' : `:${p.line}`} ${p.message}`,
        ),
      );
      expect(await panel.getByRole('button', { name: 'Install', exact: true }).count()).toBe(0);
      await shot(page, 'addons-problems');
      await panel.getByRole('button', { name: 'Close review' }).click();
      await expect.poll(() => panel.count()).toBe(0);
    });

    it('fits a phone: nothing scrolls sideways, and a long review keeps its buttons in reach', async () => {
      const { page } = s;
      // A long skill with a line that has no space to break at: the review must wrap it.
      const skill = `# Release notes\n${'x'.repeat(300)}\n${Array.from({ length: 80 }, (_, i) => `- rule ${i}`).join('\n')}\n`;
      writeAddon(coll, 'release', {
        ...release({ version: '1.2.0' }),
        files: {
          ...release({ version: '1.2.0' }).files,
          'skills/notes/SKILL.md': `---\nname: notes\n---\n${skill}`,
        },
      });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${jig.url}/templates/addons`);
      const sideways = () => page.evaluate<(boolean | string)[]>(SIDEWAYS);
      await page.getByRole('button', { name: 'What release offers' }).click();
      await page.getByRole('group', { name: 'What release offers' }).waitFor();
      expect(await sideways()).toEqual([false]);
      await shot(page, 'addons-phone');

      // Opening the tab marks the update from what is on this machine, with no Check for updates.
      await page.getByRole('button', { name: 'Review update of release' }).click();
      const panel = page.getByRole('region', { name: 'Update release 1.1.0 → 1.2.0' });
      await panel.getByLabel('Diff of skill release:notes').waitFor();
      expect(await sideways()).toEqual([false]);
      const inReach = () => page.evaluate<boolean>(IN_REACH);
      expect(await inReach()).toBe(true);
      // Halfway down the long diff the buttons are still there to press.
      await page.evaluate(
        `document.querySelector('[aria-label="Diff of skill release:notes"]').scrollIntoView({ block: 'end' })`,
      );
      expect(await inReach()).toBe(true);
      await shot(page, 'addons-phone-review');
      await panel.getByRole('button', { name: 'Close review' }).click();
      await page.setViewportSize({ width: 1280, height: 800 });
    });

    it('logged no console errors and asked no other host for anything', () => {
      // The refusals the tests asked for on purpose: Chromium logs every 4xx it fetched.
      const refused = (status: string, path: string) =>
        `console: Failed to load resource: the server responded with a status of ${status} (${jig.url}${path})`;
      expect(s.problems).toEqual([
        refused('422 (Unprocessable Entity)', '/api/addons/collections'),
        refused('409 (Conflict)', '/api/addons/release'),
        refused('409 (Conflict)', '/api/addons/release/update'),
      ]);
      expect(s.foreign).toEqual([]);
    });
  },
);
