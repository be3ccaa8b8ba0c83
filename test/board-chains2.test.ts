import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentSetup } from './helpers/agents.js';
import { noChromium, openBrowser, shot, type Session } from './helpers/browser.js';
import { cleanupAll, http, type JigProcess } from './helpers/server.js';

/*
 * Templates › Chains, part 2 (docs/board/chains.md): the tasks inside a node's handlers and its
 * slot tasks edited in the inspector, list and mapping values edited there, and YAML typed in the
 * YAML view kept across a switch to Graph or Review.
 */

const LOOP = `nodes:
  - id: build
    kind: exec
    policy:
      max_attempts: 2
    tasks:
      - id: make
        kind: subprocess
        argv: [sh, -c, echo made]
    fix_loop:
      tasks:
        - id: repair
          kind: subprocess
          run: echo repaired
`;

/** A chain with a problem (a node without a step) does not resolve: the inspector shows it as written. */
const WAITS = `nodes:
  - id: merge
    kind: exec
    tasks:
      - id: wait_pr
        kind: forge
        target: pr_merged
        wait:
          polling:
            initial_interval: 30s
  - id: later
    kind: exec
`;

let jig: JigProcess;
let home: string;
let s: Session;

async function api(method: string, path: string, body?: unknown) {
  return http(`${jig.url}${path}`, { method, ...(body === undefined ? {} : { body }) });
}
const graphNode = (page: Page, id: string) => page.getByTestId(`rf__node-${id}`);
/** The draft's chain as the server holds it, written form. */
const model = async () =>
  (await api('GET', '/api/drafts/chains/loop')).json.result.model['chains/loop.yaml'].nodes[0];
const onDisk = () => readFileSync(join(home, 'config', 'chains', 'loop.yaml'), 'utf8');

beforeAll(async () => {
  if (noChromium) return;
  ({ jig, home } = await agentSetup({ loop: LOOP, waits: WAITS }));
  s = await openBrowser();
}, 60_000);
afterAll(async () => {
  await s?.close();
  await cleanupAll();
});

describe.skipIf(noChromium !== null)(
  `the chains editor, part 2, in chromium${noChromium ? ` (skipped: ${noChromium})` : ''}`,
  () => {
    it("edits the tasks of a node's fix loop and its judge and escalation slots", async () => {
      const { page } = s;
      await page.goto(`${jig.url}/templates/chains/loop`);
      await page.getByText('published, no draft').waitFor();
      await graphNode(page, 'build').click();
      const node = page.getByRole('complementary', { name: 'Node build' });
      const loop = node.getByRole('region', { name: 'Handler build.fix_loop' });
      const repair = loop.getByRole('region', { name: 'Task build.fix_loop.main.repair' });
      await expect.poll(() => repair.getByLabel('run', { exact: true }).inputValue()).toBe('echo repaired');
      await expect.poll(() => repair.locator('.ce-src').first().innerText()).toBe('set here');

      await repair.getByLabel('run', { exact: true }).fill('echo fixed');
      await repair.getByLabel('run', { exact: true }).press('Enter');
      await page.getByText('draft · 1 change · 0 problems').waitFor();
      expect((await model()).fix_loop).toEqual({
        tasks: [{ id: 'repair', kind: 'subprocess', run: 'echo fixed' }],
      });

      // A task added to the handler's step shows its problem at the task; removing it clears it.
      await loop.getByLabel('Kind of the new task in build.fix_loop.main').selectOption('subprocess');
      await loop.getByRole('button', { name: 'Add task' }).click();
      const added = loop.getByRole('region', { name: 'Task build.fix_loop.main.subprocess' });
      await expect
        .poll(() => added.getByRole('alert').allInnerTexts())
        .toEqual([
          'kind: a subprocess task needs `run` (a shell line) or `argv` (a program and its arguments, no shell)',
        ]);
      expect((await model()).fix_loop.tasks.map((t: any) => t.id)).toEqual(['repair', 'subprocess']);
      await added.getByRole('button', { name: 'Remove task build.fix_loop.main.subprocess' }).click();
      await added.waitFor({ state: 'detached' });
      expect((await model()).fix_loop.tasks.map((t: any) => t.id)).toEqual(['repair']);

      // The judge slot opens with the fix loop: added, its problem shown, then its command set.
      await node.getByLabel('Kind of the judge task of build').selectOption('subprocess');
      await node.getByRole('button', { name: 'Add judge' }).click();
      const judge = node.getByRole('region', { name: 'Task build.fix_loop.judge' });
      await expect
        .poll(() => judge.getByRole('alert').allInnerTexts())
        .toEqual([
          'kind: a subprocess task needs `run` (a shell line) or `argv` (a program and its arguments, no shell)',
        ]);
      await judge.getByLabel('Field name').fill('run');
      await judge.getByLabel('Field value').fill('echo judged');
      await judge.getByRole('button', { name: 'Set field' }).click();
      await expect.poll(() => judge.getByLabel('run', { exact: true }).inputValue()).toBe('echo judged');
      expect((await model()).fix_loop.judge).toEqual({ id: 'judge', kind: 'subprocess', run: 'echo judged' });

      // Escalation: added and removed again.
      await node.getByRole('button', { name: 'Add escalation' }).click();
      const esc = node.getByRole('region', { name: 'Task build.escalation.escalate' });
      await esc.waitFor();
      expect((await model()).escalation).toEqual({ id: 'escalate', kind: 'subprocess' });
      await shot(page, 'chains2-handlers');
      await esc.getByRole('button', { name: 'Remove task build.escalation.escalate' }).click();
      await esc.waitFor({ state: 'detached' });
      expect((await model()).escalation).toBeUndefined();
      await node.getByRole('button', { name: 'Add escalation' }).waitFor();
    });

    it('edits a list one item per line, and a mapping leaf by leaf', async () => {
      const { page } = s;
      const node = page.getByRole('complementary', { name: 'Node build' });
      const make = node.getByRole('region', { name: 'Task build.main.make' });
      const argv = make.getByLabel('argv', { exact: true });
      await expect.poll(() => argv.inputValue()).toBe('sh\n-c\necho made');
      await argv.fill('sh\n-c\necho made twice\n');
      await argv.blur();
      await expect.poll(async () => (await model()).tasks[0].argv).toEqual(['sh', '-c', 'echo made twice']);
      await expect.poll(() => argv.inputValue()).toBe('sh\n-c\necho made twice');

      // A mapping is edited leaf by leaf (the result's sources list it so): one leaf changed, one added.
      const own = node.locator('> .ce-fields');
      await own.getByLabel('policy.max_attempts', { exact: true }).fill('3');
      await own.getByLabel('policy.max_attempts', { exact: true }).press('Enter');
      await expect.poll(async () => (await model()).policy).toEqual({ max_attempts: 3 });
      await own.getByLabel('Field name').fill('policy.timeout_minutes');
      await own.getByLabel('Field value').fill('30');
      await own.getByRole('button', { name: 'Set field' }).click();
      await expect.poll(async () => (await model()).policy).toEqual({ max_attempts: 3, timeout_minutes: 30 });
      await expect
        .poll(() => own.getByLabel('policy.timeout_minutes', { exact: true }).inputValue())
        .toBe('30');

      // A list key set from nothing takes a JSON list; it then shows one item per line.
      await make.getByLabel('Field name').fill('argv');
      await make.getByLabel('Field value').fill('["sh", "-c", "echo again"]');
      await make.getByRole('button', { name: 'Set field' }).click();
      await expect.poll(async () => (await model()).tasks[0].argv).toEqual(['sh', '-c', 'echo again']);
      await expect.poll(() => argv.inputValue()).toBe('sh\n-c\necho again');
      await shot(page, 'chains2-values');
    });

    it('edits a mapping value as key/value rows', async () => {
      const { page } = s;
      await page.goto(`${jig.url}/templates/chains/waits`);
      await graphNode(page, 'merge').click();
      const task = page.getByRole('region', { name: 'Task merge.main.wait_pr' });
      const polling = task.getByRole('group', { name: 'wait.polling', exact: true });
      await expect.poll(() => polling.getByLabel('wait.polling key 1').inputValue()).toBe('initial_interval');
      await polling.getByLabel('wait.polling value 1').fill('1m');
      await polling.getByRole('button', { name: 'Add row' }).click();
      await polling.getByLabel('wait.polling key 2').fill('max_interval');
      await polling.getByLabel('wait.polling value 2').fill('5m');
      await shot(page, 'chains2-mapping');
      await polling.getByRole('button', { name: 'Save wait.polling' }).click();
      const wait = async () =>
        (await api('GET', '/api/drafts/chains/waits')).json.result.model['chains/waits.yaml'].nodes[0]
          .tasks[0].wait;
      await expect.poll(wait).toEqual({ polling: { initial_interval: '1m', max_interval: '5m' } });
      await expect.poll(() => polling.getByLabel('wait.polling value 2').inputValue()).toBe('5m');
      await polling.getByRole('button', { name: 'Remove wait.polling max_interval' }).click();
      await polling.getByRole('button', { name: 'Save wait.polling' }).click();
      await expect.poll(wait).toEqual({ polling: { initial_interval: '1m' } });

      // A gate's slot is its auto review.
      await page.getByLabel('New node id').fill('check');
      await page.getByLabel('New node kind').selectOption('gate');
      await page.getByRole('button', { name: 'Add node after merge' }).click();
      const gate = page.getByRole('complementary', { name: 'Node check' });
      await gate.getByRole('button', { name: 'Add auto_review' }).click();
      await gate.getByRole('region', { name: 'Task check.auto_review' }).waitFor();
      const nodes = (await api('GET', '/api/drafts/chains/waits')).json.result.model['chains/waits.yaml']
        .nodes;
      expect(nodes[1]).toEqual({
        id: 'check',
        kind: 'gate',
        auto_review: { id: 'reviewer', kind: 'subprocess' },
      });
      expect(await gate.getByRole('button', { name: 'Add judge' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Discard draft' }).click();
      await page.getByRole('status').filter({ hasText: 'Draft discarded.' }).waitFor();
    });

    it('keeps unsaved YAML across a switch to Graph and Review, then saves and publishes it', async () => {
      const { page } = s;
      await page.goto(`${jig.url}/templates/chains/loop`);
      await page.getByText(/^draft · /).waitFor();
      await page.getByRole('button', { name: 'YAML' }).click();
      const text = page.getByLabel('Text of chains/loop.yaml');
      const was = await text.inputValue();
      const typed = `# typed by hand\n${was}`;
      await text.fill(typed);
      await page.getByRole('button', { name: 'Graph' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: 'The YAML view holds text you have not saved' })
        .waitFor();
      await page.getByRole('button', { name: 'Review & publish' }).click();
      await page.getByRole('region', { name: 'Review and publish' }).waitFor();
      // An op meanwhile changes the draft: the typed text stays, and the view says the draft moved.
      await page.getByRole('button', { name: 'Graph' }).click();
      await graphNode(page, 'build').click();
      const repair = page.getByRole('region', { name: 'Task build.fix_loop.main.repair' });
      await repair.getByLabel('run', { exact: true }).fill('echo later');
      await repair.getByLabel('run', { exact: true }).press('Enter');
      await expect.poll(async () => (await model()).fix_loop.tasks[0].run).toBe('echo later');
      await page.getByRole('button', { name: 'YAML (unsaved)' }).click();
      expect(await text.inputValue()).toBe(typed);
      await page
        .getByRole('status')
        .filter({ hasText: 'The draft changed since you began typing here' })
        .waitFor();
      // Nothing typed reached the draft until Save YAML.
      expect((await api('GET', '/api/drafts/chains/loop')).json.files['chains/loop.yaml']).toContain(
        'run: echo later',
      );
      await shot(page, 'chains2-yaml-kept');

      await page.getByRole('button', { name: 'Save YAML' }).click();
      await page.getByRole('button', { name: 'YAML', exact: true }).waitFor();
      expect((await api('GET', '/api/drafts/chains/loop')).json.files['chains/loop.yaml']).toBe(typed);
      await page.getByRole('button', { name: 'Review & publish' }).click();
      const review = page.getByRole('region', { name: 'Review and publish' });
      await review.getByRole('button', { name: 'Publish' }).click();
      await page.getByRole('status').filter({ hasText: 'Published chains/loop.yaml' }).waitFor();
      expect(onDisk()).toBe(typed);
      const resolved = (await api('GET', '/api/templates/chains/loop/resolved')).json.resolved.nodes[0];
      expect(resolved.fix_loop.judge).toMatchObject({ id: 'judge', kind: 'subprocess', run: 'echo judged' });
      expect(resolved.policy).toEqual({ max_attempts: 3, timeout_minutes: 30 });
      expect(resolved.tasks?.[0] ?? resolved.steps[0].tasks[0]).toMatchObject({
        argv: ['sh', '-c', 'echo again'],
      });
    });

    it('logged no console errors and asked no other host for anything', () => {
      expect(s.problems).toEqual([]);
      expect(s.foreign).toEqual([]);
    });
  },
);
