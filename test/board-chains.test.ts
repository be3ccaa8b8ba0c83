import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentSetup } from './helpers/agents.js';
import { noChromium, openBrowser, shot, type Session } from './helpers/browser.js';
import { until } from './helpers/engine.js';
import { cleanupAll, http, type JigProcess } from './helpers/server.js';

/*
 * Templates › Chains (docs/board/chains.md): a chain edited in the graph editor on its draft, a
 * problem shown at the node and the field then fixed, published and run by an item; then a stale
 * publish (the file changed behind the draft's back) resolved by a rebase that keeps both edits.
 */

/** A chain of commands only: no agent CLI needed to run it. */
const STEPS = `nodes:
  - id: build
    kind: exec
    tasks:
      - id: touch
        kind: subprocess
        run: echo built >> out.txt && git add out.txt && git commit -qm built
`;

let jig: JigProcess;
let repo: string;
let home: string;
let s: Session;

async function api(method: string, path: string, body?: unknown, headers?: Record<string, string>) {
  return http(`${jig.url}${path}`, {
    method,
    ...(body === undefined ? {} : { body }),
    ...(headers ? { headers } : {}),
  });
}
/** A node of the chain graph (React Flow names it by its id). */
const graphNode = (page: Page, id: string) => page.getByTestId(`rf__node-${id}`);
const onDisk = () => readFileSync(join(home, 'config', 'chains', 'steps.yaml'), 'utf8');

beforeAll(async () => {
  if (noChromium) return;
  ({ jig, repo, home } = await agentSetup({ steps: STEPS }));
  s = await openBrowser();
}, 60_000);
afterAll(async () => {
  await s?.close();
  await cleanupAll();
});

describe.skipIf(noChromium !== null)(
  `the chains editor in chromium${noChromium ? ` (skipped: ${noChromium})` : ''}`,
  () => {
    it('edits a chain in the graph, shows a problem then fixes it, publishes it, and an item runs it', async () => {
      const { page } = s;
      await page.goto(`${jig.url}/templates/chains`);
      const row = page.getByRole('row', { name: /steps/ });
      await expect
        .poll(() => row.getByRole('cell').allInnerTexts())
        .toEqual(['steps', '1', '0', '', 'Duplicate']);
      await shot(page, 'chains-list');

      await row.getByRole('link', { name: 'steps' }).click();
      await page.waitForURL(/\/templates\/chains\/steps$/);
      await page.getByText('published, no draft').waitFor();
      await graphNode(page, 'build').click();
      const inspector = page.getByRole('complementary', { name: 'Node build' });
      await expect
        .poll(() => inspector.getByLabel('run').inputValue())
        .toBe('echo built >> out.txt && git add out.txt && git commit -qm built');

      // A node with no step is a problem, shown on the graph and in the inspector.
      await page.getByLabel('New node id').fill('lint');
      await page.getByRole('button', { name: 'Add node after build' }).click();
      await page.getByRole('group', { name: 'node lint: 1 problem' }).waitFor();
      const lint = page.getByRole('complementary', { name: 'Node lint' });
      await expect
        .poll(() => lint.getByRole('alert').allInnerTexts())
        .toEqual(['an exec node needs `tasks` or `steps`']);
      await shot(page, 'chains-problem');
      let draft = (await api('GET', '/api/drafts/chains/steps')).json;
      expect(draft.draft).toBe(true);
      expect(draft.result.problems.map((p: any) => [p.path, p.message])).toEqual([
        ['lint', 'an exec node needs `tasks` or `steps`'],
      ]);

      // A command task without its command is the next problem, at the task; setting `run` fixes it.
      await lint.getByLabel('Kind of the new task in lint.main').selectOption('subprocess');
      await lint.getByRole('button', { name: 'Add task' }).click();
      const task = lint.getByRole('region', { name: 'Task lint.main.subprocess' });
      await expect
        .poll(() => task.getByRole('alert').allInnerTexts())
        .toEqual([
          'kind: a subprocess task needs `run` (a shell line) or `argv` (a program and its arguments, no shell)',
        ]);
      await task.getByLabel('Field name').fill('run');
      await task.getByLabel('Field value').fill('echo linted >> lint.txt');
      await task.getByRole('button', { name: 'Set field' }).click();
      await page.getByText('draft · 2 changes · 0 problems').waitFor();
      await expect.poll(() => task.getByLabel('run').inputValue()).toBe('echo linted >> lint.txt');
      await expect(page.getByRole('group', { name: 'node lint: 1 problem' }).count()).resolves.toBe(0);

      // Rename in place, then undo it.
      await lint.getByRole('button', { name: 'Rename lint', exact: true }).click();
      await lint.getByLabel('New id of lint').fill('check');
      await lint.getByRole('button', { name: 'Rename', exact: true }).click();
      await page.getByRole('complementary', { name: 'Node check' }).waitFor();
      expect(
        (await api('GET', '/api/drafts/chains/steps')).json.result.model['chains/steps.yaml'].nodes[1].id,
      ).toBe('check');
      await page.getByRole('button', { name: 'Undo' }).click();
      await graphNode(page, 'lint').waitFor();
      await shot(page, 'chains-editor');

      // The YAML view: text that does not parse is kept and its error shown at its line; undo takes it back.
      await page.getByRole('button', { name: 'YAML' }).click();
      const text = page.getByLabel('Text of chains/steps.yaml');
      const good = await text.inputValue();
      expect(good).toContain('  - id: lint\n');
      await text.fill(`${good}  - id: [broken\n`);
      await page.getByRole('button', { name: 'Save YAML' }).click();
      const yamlAlert = page.getByRole('alert').filter({ hasText: 'does not parse' });
      await expect
        .poll(() => yamlAlert.innerText())
        .toMatch(/^chains\/steps\.yaml does not parse at line \d+/);
      draft = (await api('GET', '/api/drafts/chains/steps')).json;
      expect(draft.result.yaml_error).toMatchObject({ file: 'chains/steps.yaml' });
      await expect.poll(() => yamlAlert.innerText()).toContain(`line ${draft.result.yaml_error.line}`);
      await shot(page, 'chains-yaml-error');
      await page.getByRole('button', { name: 'Undo' }).click();
      await expect.poll(() => text.inputValue()).toBe(good);
      expect((await api('GET', '/api/drafts/chains/steps')).json.result.yaml_error).toBeNull();

      // Review & publish: the changes, the impact, the diff; then the publish.
      await page.getByRole('button', { name: 'Review & publish' }).click();
      const review = page.getByRole('region', { name: 'Review and publish' });
      await expect
        .poll(() => review.getByRole('listitem').allInnerTexts())
        .toEqual(['added lint: node added', 'added lint.main.subprocess: task added']);
      await review.getByText('0 items on this chain not ended').waitFor();
      await review.getByText('+  - id: lint').waitFor();
      await shot(page, 'chains-publish');
      await review.getByRole('button', { name: 'Publish' }).click();
      await page.getByRole('status').filter({ hasText: 'Published chains/steps.yaml' }).waitFor();
      await page.getByText('published, no draft').waitFor();
      expect((await api('GET', '/api/drafts')).json).toEqual([]);
      expect(onDisk()).toContain('  - id: lint\n');
      const resolved = (await api('GET', '/api/templates/chains/steps/resolved')).json;
      expect(resolved.resolved.nodes.map((n: any) => n.id)).toEqual(['build', 'lint']);
      expect(resolved.resolved.nodes[1].steps[0].tasks[0]).toMatchObject({
        kind: 'subprocess',
        run: 'echo linted >> lint.txt',
      });

      // The next item runs the published chain, lint included.
      const filed = await api('POST', '/api/work-items', {
        title: 'Run the edited chain',
        repo,
        chain: 'steps',
        start: true,
      });
      expect(filed.status, filed.text).toBe(201);
      const done = await until(jig, filed.json.id, (i) => i.status === 'completed' || i.status === 'stopped');
      expect(done.status).toBe('completed');
      const ran = (await api('GET', `/api/work-items/${filed.json.id}/events`)).json;
      const nodes = (Array.isArray(ran) ? ran : ran.events)
        .filter((e: any) => e.type === 'node_completed')
        .map((e: any) => e.payload.node ?? e.node);
      expect(nodes).toEqual(['build', 'lint']);
    });

    it('resolves a stale publish by rebasing, keeping both edits', async () => {
      const { page } = s;
      const mark = s.problems.length;
      await page.goto(`${jig.url}/templates/chains/steps`);
      await graphNode(page, 'build').click();
      const build = page.getByRole('complementary', { name: 'Node build' });
      await build.getByRole('region', { name: 'Task build.main.touch' }).waitFor();
      await shot(page, 'chains-inspector');
      await build.getByLabel('Field name').first().fill('description');
      await build.getByLabel('Field value').first().fill('Builds it.');
      await build.getByRole('button', { name: 'Set field' }).first().click();
      await page.getByText('draft · 1 change · 0 problems').waitFor();

      // Behind the draft's back, the file gains a description of the chain itself.
      const file = await api('GET', '/api/templates/chains/steps/file');
      expect(file.status, file.text).toBe(200);
      const theirs = `description: Theirs.\n${file.json.text}`;
      const saved = await api(
        'PUT',
        '/api/templates/chains/steps/file',
        { text: theirs },
        { 'if-match': file.headers.get('etag')! },
      );
      expect(saved.status, saved.text).toBe(200);

      await page.getByRole('button', { name: 'Review & publish' }).click();
      const review = page.getByRole('region', { name: 'Review and publish' });
      await review.getByRole('button', { name: 'Publish' }).click();
      const choice = review.getByRole('group', { name: 'Published since this draft began' });
      await choice.waitFor();
      await expect
        .poll(() => review.getByRole('alert').innerText())
        .toContain('published since this draft began: chains/steps.yaml');
      await choice.getByText('-description: Theirs.').waitFor();
      await shot(page, 'chains-stale');
      expect(onDisk()).toBe(theirs);

      await choice.getByRole('button', { name: 'Rebase, keep both' }).click();
      await review.getByRole('status').filter({ hasText: 'Rebased' }).waitFor();
      const rebased = (await api('GET', '/api/drafts/chains/steps')).json;
      expect(rebased.files['chains/steps.yaml']).toContain('description: Theirs.');
      expect(rebased.files['chains/steps.yaml']).toContain('description: Builds it.');
      await review.getByRole('button', { name: 'Publish' }).click();
      await page.getByRole('status').filter({ hasText: 'Published chains/steps.yaml' }).waitFor();

      const now = onDisk();
      expect(now).toContain('description: Theirs.\n');
      expect(now).toContain('description: Builds it.');
      const resolved = (await api('GET', '/api/templates/chains/steps/resolved')).json.resolved;
      expect(resolved.description).toBe('Theirs.');
      expect(resolved.nodes.map((n: any) => [n.id, n.description ?? null])).toEqual([
        ['build', 'Builds it.'],
        ['lint', null],
      ]);
      // The one console line is the stale publish's documented 409.
      expect(s.problems.splice(mark)).toEqual([
        `console: Failed to load resource: the server responded with a status of 409 (Conflict) (${jig.url}/api/drafts/chains/steps/publish)`,
      ]);
    });

    it("shows where each value comes from, and resets one set here to the library's", async () => {
      const { page } = s;
      await page.goto(`${jig.url}/templates/chains/quick-task`);
      // With no node selected, the chain's own keys.
      const chain = page.getByRole('complementary', { name: 'Chain quick-task itself' });
      await expect
        .poll(() => chain.getByLabel('description', { exact: true }).inputValue())
        .toBe("Smoke-test chain. Implement and run the changed scopes' tests, with no gate.");
      await chain.getByLabel('description', { exact: true }).fill('Quick.');
      // A long text is a text area: it saves when the field is left.
      await chain.getByLabel('description', { exact: true }).blur();
      await expect
        .poll(
          async () =>
            (await api('GET', '/api/drafts/chains/quick-task')).json.result.model['chains/quick-task.yaml']
              .description,
        )
        .toBe('Quick.');
      // A task a library node brings is marked: the file does not hold it.
      await graphNode(page, 'implementation').click();
      await page
        .getByRole('region', { name: 'Task implementation.main.implement' })
        .getByText('inherited from nodes.implementation')
        .waitFor();
      await graphNode(page, 'verify').click();
      const task = page.getByRole('region', { name: 'Task verify.main.verify' });
      const scope = task.locator('.ce-field').filter({ has: page.getByLabel('scope', { exact: true }) });
      await expect.poll(() => task.getByLabel('scope', { exact: true }).inputValue()).toBe('each_repository');
      await expect
        .poll(() => scope.locator('.ce-src').innerText())
        .toBe('from library tasks.verify_changed_scopes');
      expect(await scope.getByRole('button', { name: 'Reset scope' }).count()).toBe(0);

      await task.getByLabel('scope', { exact: true }).fill('once');
      await task.getByLabel('scope', { exact: true }).press('Enter');
      await expect.poll(() => scope.locator('.ce-src').innerText()).toBe('set here');
      let draft = (await api('GET', '/api/drafts/chains/quick-task')).json;
      expect(draft.result.sources['verify.main.verify'].scope).toEqual({ value: 'once', source: 'chain' });
      await shot(page, 'chains-sources');

      await scope.getByRole('button', { name: 'Reset scope' }).click();
      await expect
        .poll(() => scope.locator('.ce-src').innerText())
        .toBe('from library tasks.verify_changed_scopes');
      draft = (await api('GET', '/api/drafts/chains/quick-task')).json;
      expect(draft.result.sources['verify.main.verify'].scope).toEqual({
        value: 'each_repository',
        source: 'library:tasks.verify_changed_scopes',
      });
      await page.getByRole('button', { name: 'Discard draft' }).click();
      await page.getByRole('status').filter({ hasText: 'Draft discarded.' }).waitFor();
      expect((await api('GET', '/api/drafts/chains/quick-task')).json.draft).toBe(false);
    });

    it('starts a new chain and a duplicate from the list', async () => {
      const { page } = s;
      await page.goto(`${jig.url}/templates/chains`);
      await page.getByRole('button', { name: 'Duplicate steps' }).click();
      await page.getByLabel('Id of the copy of steps').fill('steps-two');
      await page.getByRole('button', { name: 'Duplicate', exact: true }).click();
      await page.waitForURL(/\/templates\/chains\/steps-two$/);
      await graphNode(page, 'lint').waitFor();
      const copy = (await api('GET', '/api/drafts/chains/steps-two')).json;
      expect(copy.draft).toBe(true);
      // A duplicate copies the chain's draft when it has one, else its file: here the file.
      expect((await api('GET', '/api/drafts/chains/steps')).json.draft).toBe(false);
      expect(copy.files['chains/steps-two.yaml']).toBe(onDisk());
      expect(copy.result.changes.map((c: any) => [c.path, c.kind])).toEqual([
        ['', 'change'],
        ['build', 'add'],
        ['build.main.touch', 'add'],
        ['lint', 'add'],
        ['lint.main.subprocess', 'add'],
      ]);

      await page.getByRole('link', { name: 'Chains', exact: true }).first().click();
      await page.getByRole('button', { name: 'New chain' }).click();
      await page.getByLabel('Id of the new chain').fill('fresh');
      await page.getByRole('button', { name: 'Create chain' }).click();
      await page.waitForURL(/\/templates\/chains\/fresh$/);
      await page.getByText('No nodes yet').waitFor();
      // An empty chain takes its first node at the end, the next after the selected one; then move and remove.
      const ids = async () =>
        (
          (await api('GET', '/api/drafts/chains/fresh')).json.result.model['chains/fresh.yaml'].nodes ?? []
        ).map((n: any) => n.id);
      await page.getByLabel('New node id').fill('first');
      await page.getByRole('button', { name: 'Add node at the end' }).click();
      await page.getByRole('complementary', { name: 'Node first' }).waitFor();
      await page.getByLabel('New node id').fill('second');
      await page.getByRole('button', { name: 'Add node after first' }).click();
      await page.getByRole('complementary', { name: 'Node second' }).waitFor();
      expect(await ids()).toEqual(['first', 'second']);
      await page.getByRole('button', { name: 'Move node second up' }).click();
      await expect.poll(ids).toEqual(['second', 'first']);
      // Dragging a node left of another moves it there too.
      const box = async (id: string) => (await graphNode(page, id).boundingBox())!;
      const [from, to] = [await box('first'), await box('second')];
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(to.x - 30, from.y + from.height / 2, { steps: 8 });
      await page.mouse.up();
      await expect.poll(ids).toEqual(['first', 'second']);
      await graphNode(page, 'first').click();
      await page.getByRole('button', { name: 'Remove node first' }).click();
      await expect.poll(ids).toEqual(['second']);
      await graphNode(page, 'first').waitFor({ state: 'detached' });
      await page.getByRole('link', { name: 'Chains', exact: true }).first().click();
      await page.getByRole('row', { name: /fresh/ }).getByText('not published yet').waitFor();
      await page
        .getByRole('row', { name: /steps-two/ })
        .getByText('draft: 5 changes, 0 problems')
        .waitFor();
      const open = (await api('GET', '/api/drafts')).json.map((d: any) => [d.area, d.key]);
      expect(open.sort()).toEqual([
        ['chains', 'fresh'],
        ['chains', 'steps-two'],
      ]);
    });

    it('logged no console errors and asked no other host for anything', () => {
      expect(s.problems).toEqual([]);
      expect(s.foreign).toEqual([]);
    });
  },
);
