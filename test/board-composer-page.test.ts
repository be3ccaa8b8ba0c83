import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noChromium, openBrowser, shot, type Session } from './helpers/browser.js';
import { engineSetup } from './helpers/engine.js';
import { cleanupAll, http, type JigProcess } from './helpers/server.js';

/*
 * The full-page composer (issue 47): More options carries the dialog's draft to /work-items/new,
 * where the chain's graph skips nodes and gives one its own model, the dry run follows, Fewer
 * options carries it all back, a reload keeps it, and the filed item records what was chosen.
 */

/** A spec the person may skip, its gate, an agent to give a model, and a check that always runs. */
const CHAIN = `
nodes:
  - id: spec
    kind: exec
    tasks:
      - id: author
        kind: agent
        harness: claude
        produces: spec
        prompt: Write the spec.
  - id: spec_review
    kind: gate
    artifact: spec
    reject_to: spec
  - id: implement
    kind: exec
    tasks:
      - id: coder
        kind: agent
        harness: claude
        prompt: Build it.
  - id: verify
    kind: exec
    skippable: false
    tasks:
      - id: check
        kind: subprocess
        run: 'true'
`;

let jig: JigProcess;
let s: Session;
let phone: Session;
const api = (method: string, path: string, body?: unknown) => http(`${jig.url}${path}`, { method, body });

beforeAll(async () => {
  if (noChromium) return;
  ({ jig } = await engineSetup({ composed: CHAIN }));
  s = await openBrowser();
  phone = await openBrowser({ width: 390, height: 844 });
}, 60_000);
afterAll(async () => {
  await s?.close();
  await phone?.close();
  await cleanupAll();
});

describe.skipIf(noChromium !== null)(
  `the full-page composer${noChromium ? ` (skipped: ${noChromium})` : ''}`,
  () => {
    it('takes the dialog’s draft, skips a node, sets a node’s model and the budget, and files them', async () => {
      const { page } = s;
      await page.goto(`${jig.url}/`);
      await page.getByRole('heading', { name: /Needs you/ }).waitFor();
      await page.keyboard.press('c');
      const dialog = page.getByRole('dialog', { name: 'New work item' });
      await dialog.getByLabel('Title').fill('Add the login page');
      await dialog.getByLabel('Chain').selectOption('composed');
      await expect.poll(() => dialog.getByRole('status').innerText()).toBe('4 of 4 nodes run · 1 gate');
      await dialog.getByRole('button', { name: 'More options' }).click();

      await page.waitForURL(`${jig.url}/work-items/new`);
      const form = page.getByRole('region', { name: 'New work item' });
      expect(await form.getByLabel('Title').inputValue()).toBe('Add the login page');
      expect(await form.getByRole('combobox', { name: /^Chain/ }).inputValue()).toBe('composed');
      const status = form.getByRole('status').first();
      await expect.poll(() => status.innerText()).toBe('4 of 4 nodes run · 1 gate');

      // A node the chain will not let pass says why, and cannot be ticked.
      const graph = form.getByLabel('Chain graph');
      const verify = graph.getByRole('checkbox', { name: 'Skip verify' });
      expect(await verify.isDisabled()).toBe(true);
      expect(await graph.locator('.react-flow__node[data-id="verify"] .gn-skip').getAttribute('title')).toBe(
        'Cannot skip verify: its chain marks it skippable: false, so it always runs',
      );

      await graph.getByRole('checkbox', { name: 'Skip spec', exact: true }).check();
      await expect.poll(() => status.innerText()).toBe('3 of 4 nodes run · 1 gate');

      await graph.locator('.react-flow__node[data-id="implement"]').click();
      const inspector = form.getByRole('region', { name: 'Options of implement' });
      await inspector.getByRole('group', { name: 'Agents' }).getByLabel('Model').fill('opus');
      await inspector.getByLabel('Fix attempts').fill('2');
      await expect
        .poll(() => graph.locator('.react-flow__node[data-id="implement"] .gn-state').innerText())
        .toBe('runs · opus');
      await form.getByRole('group', { name: 'Policy and budget' }).getByLabel('Budget (USD)').fill('5');
      await expect.poll(() => form.getByText(/^It runs under \$5\.00, its own cap\.$/).count()).toBe(1);
      await shot(page, 'composer-page');
      await page.evaluate("document.querySelector('.page').scrollTo(0, 0)");
      await shot(page, 'composer-page-top');

      // Fewer options carries the page's choices back into the dialog, and More options out again.
      await form.getByRole('button', { name: 'Fewer options' }).click();
      await dialog.waitFor();
      expect(await dialog.getByLabel('Title').inputValue()).toBe('Add the login page');
      await dialog
        .getByText('Also set: skips spec · agent settings on implement · caps on implement · budget $5')
        .waitFor();
      await expect.poll(() => dialog.getByRole('status').innerText()).toBe('3 of 4 nodes run · 1 gate');
      await shot(page, 'composer-dialog-more-set');
      await dialog.getByRole('button', { name: 'More options' }).click();
      await page.waitForURL(`${jig.url}/work-items/new`);

      // The address works on its own: a reload answers the page, with the draft as it was.
      await page.reload();
      await expect.poll(() => status.innerText()).toBe('3 of 4 nodes run · 1 gate');
      expect(await graph.getByRole('checkbox', { name: 'Skip spec', exact: true }).isChecked()).toBe(true);

      await form.getByRole('button', { name: 'Create paused' }).click();
      await page.getByRole('heading', { name: 'Add the login page' }).waitFor();
      const id = page.url().split('/').pop()!;
      const item = (await api('GET', `/api/work-items/${id}`)).json;
      expect({
        status: item.status,
        chain: item.chain,
        skip_nodes: item.skip_nodes,
        node_overrides: item.node_overrides,
        policy_override: item.policy_override,
        budget_cap: item.budget_cap.cap_usd,
      }).toEqual({
        status: 'paused',
        chain: 'composed',
        skip_nodes: ['spec'],
        node_overrides: { implement: { model: 'opus' } },
        policy_override: { implement: { max_attempts: 2 } },
        budget_cap: 5,
      });

      // Filed, the draft is gone: the next composer starts empty.
      await page.keyboard.press('c');
      await dialog.waitFor();
      expect(await dialog.getByLabel('Title').inputValue()).toBe('');
      await dialog.getByRole('button', { name: 'Close' }).click();
      expect(s.problems).toEqual([]);
      expect(s.foreign).toEqual([]);
    });

    it('opens by its address on a phone, one column with nothing sideways', async () => {
      const { page } = phone;
      await page.goto(`${jig.url}/work-items/new`);
      const form = page.getByRole('region', { name: 'New work item' });
      await form.getByLabel('Title').fill('From a phone');
      await form.getByRole('combobox', { name: /^Chain/ }).selectOption('composed');
      await expect.poll(() => form.getByRole('status').first().innerText()).toBe('4 of 4 nodes run · 1 gate');
      await shot(page, 'composer-page-phone');
      // The graph opens at its first nodes and pans; the node picker reaches every one.
      await form.getByRole('combobox', { name: 'Node' }).selectOption('spec_review');
      await form.getByRole('region', { name: 'Options of spec_review' }).getByLabel('Skip this node').check();
      await expect
        .poll(() => form.getByRole('status').first().innerText())
        .toBe('3 of 4 nodes run · 0 gates');
      expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth')).toBe(
        true,
      );
      await form.getByLabel('Chain graph').scrollIntoViewIfNeeded();
      await shot(page, 'composer-page-phone-graph');
      expect(phone.problems).toEqual([]);
    });
  },
);
