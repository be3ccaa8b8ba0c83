import { appendFileSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentSetup } from './helpers/agents.js';
import { noChromium, openBrowser, shot, type Session } from './helpers/browser.js';
import { cleanupAll, http, tempHome, type JigProcess } from './helpers/server.js';
import { DEFAULTS } from './helpers/templates.js';

/*
 * The harnesses draft's Undo and its stale publish (the Policy draft published policy.yaml first),
 * rebased and published; a stale Settings › Policy draft discarded; an emptied fix-loop limit,
 * which removes the entry or is refused at the field; and the intake trackers, read-only. Each
 * checked on the screen and against the server's answers and the files on disk.
 */

let jig: JigProcess;
let home: string;
let s: Session;

// A loop entry that sets only its wall clock, and two tracker blocks.
const LOOP = 'verification.fix_loop';
const INTAKE_TRACKERS = `
issues:
  label: jig
  priority_labels: {P0: 0, P1: 1}
  epic_label: big
  default_priority: 3
linear:
  team: ENG
  label: ready
`;

beforeAll(async () => {
  if (noChromium) return;
  home = tempHome();
  cpSync(DEFAULTS, join(home, 'config'), { recursive: true });
  const policy = join(home, 'config', 'policy.yaml');
  const text = readFileSync(policy, 'utf8');
  expect(text).toContain('\nloops: {}\n');
  writeFileSync(policy, text.replace('\nloops: {}\n', `\nloops:\n  ${LOOP}:\n    wall_clock_s: 900\n`));
  appendFileSync(join(home, 'config', 'intake.yaml'), INTAKE_TRACKERS);
  ({ jig } = await agentSetup({}, { home }));
  s = await openBrowser();
}, 60_000);
afterAll(async () => {
  await s?.close();
  await cleanupAll();
});

const config = (file: string): string => readFileSync(join(home, 'config', file), 'utf8');
const draftOf = async (area: string) => {
  const r = await http(`${jig.url}/api/drafts/${area}/${area}`);
  expect(r.status, r.text).toBe(200);
  return r.json;
};
type Entry = {
  key: string;
  attempts: { value: number; source: string };
  wall_clock_s: { value: number; source: string };
};
const entries = async (): Promise<Entry[]> => (await draftOf('policy')).result.resolved.loops.entries;

describe.skipIf(noChromium !== null)(
  `settings part 2 in chromium${noChromium ? ` (skipped: ${noChromium})` : ''}`,
  () => {
    it('undoes harness changes one op at a time, the last closing the draft', async () => {
      const { page } = s;
      await page.goto(`${jig.url}/templates/harnesses`);
      await page.getByRole('combobox', { name: 'Access of gemini' }).selectOption('never');
      const bar = page.getByRole('region', { name: 'Draft' });
      await bar.waitFor();
      const first = await draftOf('harnesses');
      const n = first.result.changes.length;
      expect(await bar.innerText()).toContain(`${n} ${n === 1 ? 'change' : 'changes'}`);
      await page.getByRole('checkbox', { name: 'amp enabled' }).click();
      await expect.poll(() => page.getByRole('checkbox', { name: 'amp enabled' }).isChecked()).toBe(false);
      const two = await draftOf('harnesses');
      expect(parse(two.files['harnesses.yaml']).harnesses.amp.enabled).toBe(false);
      expect(two.result.changes.length).toBeGreaterThan(n);

      await bar.getByRole('button', { name: 'Undo' }).click();
      await expect.poll(() => page.getByRole('checkbox', { name: 'amp enabled' }).isChecked()).toBe(true);
      const one = await draftOf('harnesses');
      expect(one.draft).toBe(true);
      expect(one.result.changes).toEqual(first.result.changes);
      expect(one.files).toEqual(first.files);
      expect(parse(one.files['harnesses.yaml']).harnesses.amp.enabled).toBe(true);
      expect(await page.getByRole('combobox', { name: 'Access of gemini' }).inputValue()).toBe('never');

      await bar.getByRole('button', { name: 'Undo' }).click();
      await expect.poll(() => page.getByRole('region', { name: 'Draft' }).count()).toBe(0);
      expect(await page.getByRole('combobox', { name: 'Access of gemini' }).inputValue()).toBe('available');
      expect((await draftOf('harnesses')).draft).toBe(false);
    });

    it('shows the diff of a stale harnesses publish, rebases and publishes the draft over it', async () => {
      const { page } = s;
      await page.goto(`${jig.url}/templates/harnesses`);
      await page.getByRole('combobox', { name: 'Access of gemini' }).selectOption('never');
      await page.getByRole('region', { name: 'Draft' }).waitFor();
      // The Policy tab publishes policy.yaml first.
      const op = await http(`${jig.url}/api/drafts/policy/policy/ops`, {
        method: 'POST',
        body: { ops: [{ op: 'set_value', scope: 'limits', key: 'budget.daily_usd', value: 70 }] },
      });
      expect(op.status, op.text).toBe(200);
      expect((await http(`${jig.url}/api/drafts/policy/policy/publish`, { method: 'POST' })).status).toBe(
        200,
      );
      expect(parse(config('policy.yaml')).budget.daily_usd).toBe(70);

      await page.getByRole('button', { name: 'Review & publish' }).click();
      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      const alert = page
        .getByRole('alert')
        .filter({ hasText: 'published since this draft began: policy.yaml' });
      await alert.waitFor();
      // The same refusal from the API (nothing is written by a stale publish): its diff is shown.
      const again = await http(`${jig.url}/api/drafts/harnesses/harnesses/publish`, { method: 'POST' });
      expect(again.status).toBe(409);
      expect(again.json.code).toBe('draft_stale');
      const diff: string = again.json.files['policy.yaml'].diff;
      expect(diff).toContain('daily_usd');
      const shown = await alert.locator('pre').innerText();
      for (const line of diff.split('\n').filter((l) => /^[+-][^+-]/.test(l))) expect(shown).toContain(line);
      expect(await alert.innerText()).toContain("Rebase keeps this draft's text");
      await shot(page, 'settings2-harnesses-stale');

      await alert.getByRole('button', { name: 'Rebase on the file on disk' }).click();
      await alert.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Published' }).waitFor();
      const policy = parse(config('policy.yaml'));
      expect(policy.maxima.allowed_harnesses).not.toContain('gemini');
      // As the screen says: the draft's text won over the Policy tab's publish.
      expect(policy.budget.daily_usd).toBe(50);
      expect((await draftOf('harnesses')).draft).toBe(false);
    });

    it('discards a stale policy draft from the refusal', async () => {
      const { page } = s;
      const file = join(home, 'config', 'policy.yaml');
      await page.goto(`${jig.url}/settings/policy`);
      const daily = page.getByLabel('Budget per day ($)');
      await daily.fill('80');
      await daily.press('Enter');
      await page.getByRole('status').filter({ hasText: 'Draft: 1 change' }).waitFor();
      appendFileSync(file, '# edited by hand\n');
      const onDisk = config('policy.yaml');
      await page.getByRole('button', { name: 'Review & publish' }).click();
      await page
        .getByRole('region', { name: 'Review and publish' })
        .getByRole('button', { name: 'Publish' })
        .click();
      const alert = page
        .getByRole('alert')
        .filter({ hasText: 'published since this draft began: policy.yaml' });
      await alert.waitFor();
      expect(await alert.locator('pre').innerText()).toContain('# edited by hand');
      await alert.getByRole('button', { name: 'Discard the draft' }).click();
      await page.getByRole('status').filter({ hasText: 'Draft discarded' }).waitFor();
      expect(await alert.count()).toBe(0);
      expect((await draftOf('policy')).draft).toBe(false);
      expect(config('policy.yaml')).toBe(onDisk);
      expect(await daily.inputValue()).toBe('50');
    });

    it('removes a loop entry when its only limit is emptied, and refuses an empty limit beside another', async () => {
      const { page } = s;
      await page.goto(`${jig.url}/settings/policy`);
      expect(await entries()).toEqual([
        {
          key: LOOP,
          attempts: { value: 3, source: 'default' },
          wall_clock_s: { value: 900, source: 'policy' },
          live: true,
        },
      ]);
      const wall = page.getByRole('textbox', { name: `${LOOP} wall clock` });
      expect(await wall.inputValue()).toBe('900');
      await wall.fill('');
      await wall.press('Enter');
      await page.getByRole('button', { name: `Override ${LOOP}` }).waitFor();
      expect(await entries()).toEqual([]);
      const removed = await draftOf('policy');
      expect(parse(removed.files['policy.yaml']).loops).toEqual({});
      expect(parse(removed.published['policy.yaml']).loops).toEqual({ [LOOP]: { wall_clock_s: 900 } });

      // A new override sets both limits: emptying one is refused and the value shows again.
      await page.getByRole('button', { name: `Override ${LOOP}` }).click();
      const attempts = page.getByRole('textbox', { name: `${LOOP} attempts` });
      await attempts.waitFor();
      const both = await entries();
      expect(both.map((e) => [e.attempts.source, e.wall_clock_s.source])).toEqual([['policy', 'policy']]);
      await attempts.fill('');
      await attempts.press('Enter');
      await page
        .getByRole('alert')
        .filter({
          hasText: `An override keeps both limits: type a number, or remove the override of ${LOOP}.`,
        })
        .waitFor();
      expect(await attempts.inputValue()).toBe(String(both[0]?.attempts.value));
      expect(await attempts.getAttribute('aria-invalid')).toBe('true');
      expect(await entries()).toEqual(both);
      // The refusal sits under the field, at the bottom of the view after the fill.
      await page.mouse.wheel(0, 400);
      await shot(page, 'settings2-loop-refused');
      await page.getByRole('button', { name: 'Discard draft' }).click();
      await expect.poll(async () => (await draftOf('policy')).draft).toBe(false);
    });

    it('sets the instance default sandbox through the policy draft; a problem shows under it; published, policy.yaml has it', async () => {
      const { page } = s;
      const publishPolicy = async () => {
        await page.getByRole('button', { name: 'Review & publish' }).click();
        const review = page.getByRole('region', { name: 'Review and publish' });
        await review.getByRole('button', { name: 'Publish' }).click();
        await page.getByRole('status').filter({ hasText: 'Published policy.yaml.' }).waitFor();
      };
      await page.goto(`${jig.url}/settings/policy`);
      const card = page.getByRole('region', { name: 'Sandbox' });
      await card.getByTestId('sandbox-now').waitFor();
      expect(await card.getByTestId('sandbox-now').innerText()).toBe(
        'None set: tasks of repositories that set none run with the server’s reach.',
      );
      // A container kind with no image: the server's problem shows under the form.
      await card.getByLabel('Kind').selectOption('podman');
      await card
        .getByLabel('Hosts tasks may reach, one per line (host, host:port or *.domain)')
        .fill('api.anthropic.com');
      await card.getByRole('button', { name: 'Set the default sandbox' }).click();
      await card
        .getByRole('alert')
        .filter({ hasText: 'a podman sandbox runs an image: name it with `image`' })
        .waitFor();
      await card.getByLabel('Image', { exact: true }).fill('localhost/dev:1');
      await card.getByLabel('Memory limit').fill('2g');
      await card.getByRole('button', { name: 'Set the default sandbox' }).click();
      await expect
        .poll(async () => card.getByTestId('sandbox-now').innerText())
        .toBe('podman, image localhost/dev:1; network: api.anthropic.com.');
      expect(await card.getByRole('alert').count()).toBe(0);
      await card.scrollIntoViewIfNeeded();
      await shot(page, 'settings-policy-sandbox');
      await publishPolicy();
      expect(parse(config('policy.yaml')).sandbox).toEqual({
        kind: 'podman',
        image: 'localhost/dev:1',
        resources: { memory: '2g' },
        network: { allow: ['api.anthropic.com'] },
      });
      expect((await http(`${jig.url}/api/policy`)).json.sandbox).toEqual(
        parse(config('policy.yaml')).sandbox,
      );
      // Removed again, through a draft of its own.
      await card.getByRole('button', { name: 'Remove it' }).click();
      await publishPolicy();
      expect(parse(config('policy.yaml')).sandbox).toBeUndefined();
    });

    it('shows the tracker blocks of intake.yaml read-only', async () => {
      const { page } = s;
      await page.goto(`${jig.url}/settings/auto-intake`);
      const trackers = page.getByRole('region', { name: 'Trackers' });
      await trackers.waitFor();
      const model = (await draftOf('intake')).result.model['intake.yaml'];
      expect(model.issues).toEqual({
        label: 'jig',
        priority_labels: { P0: 0, P1: 1 },
        epic_label: 'big',
        default_priority: 3,
      });
      const forge = trackers.getByRole('region', { name: 'Forge issues' });
      expect(await forge.locator('dt').allInnerTexts()).toEqual([
        'label',
        'priority_labels',
        'epic_label',
        'default_priority',
      ]);
      expect(await forge.locator('dd').allInnerTexts()).toEqual(['jig', 'P0: 0, P1: 1', 'big', '3']);
      const linear = trackers.getByRole('region', { name: 'Linear' });
      expect(await linear.locator('dd').allInnerTexts()).toEqual(['ENG', 'ready', 'not set']);
      await trackers
        .getByRole('region', { name: 'Jira' })
        .getByText('Not set: auto-intake does not read Jira.')
        .waitFor();
      expect(await trackers.innerText()).toContain('the intake draft has no op for them');
      expect(await trackers.getByRole('textbox').count()).toBe(0);
      await shot(page, 'settings2-intake-trackers');
    });

    it('logged no console errors and asked no other host for anything', () => {
      // The two stale publishes the tests asked for: Chromium logs every 4xx it fetched.
      const stale = (area: string) =>
        `console: Failed to load resource: the server responded with a status of 409 (Conflict) (${jig.url}/api/drafts/${area}/${area}/publish)`;
      expect(s.problems).toEqual([stale('harnesses'), stale('policy')]);
      expect(s.foreign).toEqual([]);
    });
  },
);
