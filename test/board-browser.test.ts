import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATED_CHAIN } from './helpers/gated-chain.js';
import { noChromium, openBrowser, shot, type Session } from './helpers/browser.js';
import { agentSetup } from './helpers/agents.js';
import { events, until } from './helpers/engine.js';
import { makeRepo } from './helpers/git.js';
import { cleanupAll, http, startJig, type JigProcess } from './helpers/server.js';

/*
 * The board in a real browser against the real server: the four groups, live updates, the
 * composer's dry run, Ctrl+K, a gate approved on the item page, the phone layout. Screenshots of
 * each screen go to .cache/screenshots for a person to look at.
 */

let jig: JigProcess;
let repo: string;
let s: Session;
let editorLog: string;
const api = (method: string, path: string, body?: unknown) => http(`${jig.url}${path}`, { method, body });

/** A command that prints a line a second, for the live log. */
const SLOW_CHAIN = `
nodes:
  - id: work
    kind: exec
    tasks:
      - id: count
        kind: subprocess
        run: for i in 1 2 3 4; do echo "line $i"; sleep 1; done
`;

/** An agent (the fake claude) writes a spec a gate shows; a rejection goes back to it. */
const DOC_CHAIN = `
nodes:
  - id: write
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
    reject_to: write
`;
const DOC = [
  '# The spec',
  '',
  'Build **this**.',
  '',
  '<script>window.pwned = true</script>',
  '<img src="http://198.51.100.7/track.png" alt="tracker">',
  '<a href="https://example.com/">a link</a>',
].join('\n');

async function file(title: string, start: boolean, chain = 'gated', more: object = {}): Promise<any> {
  const r = await api('POST', '/api/work-items', { title, repo, chain, start, ...more });
  expect(r.status, r.text).toBe(201);
  return r.json;
}

beforeAll(async () => {
  if (noChromium) return;
  // The editor the server opens a worktree in: a script that notes the path it was given.
  const edDir = mkdtempSync(join(tmpdir(), 'jig-board-editor-'));
  editorLog = join(edDir, 'opened.txt');
  writeFileSync(join(edDir, 'editor'), `#!/bin/sh\necho "$1" >> ${editorLog}\n`);
  chmodSync(join(edDir, 'editor'), 0o755);
  ({ jig, repo } = await agentSetup(
    { gated: GATED_CHAIN, doc: DOC_CHAIN, slow: SLOW_CHAIN },
    {
      env: { FAKE_AGENT_MODE: 'done', FAKE_AGENT_ARTIFACT: DOC },
      serverEnv: { JIG_EDITOR: join(edDir, 'editor') },
    },
  ));
  s = await openBrowser();
}, 60_000);
afterAll(async () => {
  await s?.close();
  await cleanupAll();
});

describe.skipIf(noChromium !== null)(
  `the board in chromium${noChromium ? ` (skipped: ${noChromium})` : ''}`,
  () => {
    it('shows the four groups in order with the items in the right ones, and a new item live', async () => {
      const waiting = await file('Waits at the gate', true);
      await until(jig, waiting.id, (i) => i.status === 'stopped' && i.stop?.kind === 'gate');
      const fresh = await file('Not started yet', false);
      const done = await file('Already done', true);
      await until(jig, done.id, (i) => i.status === 'stopped');
      expect((await api('POST', `/api/work-items/${done.id}/gates/review/approve`, {})).status).toBe(200);
      await until(jig, done.id, (i) => i.status === 'completed');

      const { page } = s;
      await page.goto(`${jig.url}/`);
      await page.getByRole('heading', { name: /Needs you/ }).waitFor();
      const groups = await page.locator('h2.group').allInnerTexts();
      expect(groups.map((g) => g.replace(/\s+\d+$/, ''))).toEqual([
        'NEEDS YOU',
        'RUNNING',
        'NOT STARTED',
        'DONE',
      ]);
      const groupOf = (id: string) =>
        page.locator(`.vrow:has([data-item="${id}"])`).getAttribute('data-group');
      expect(await groupOf(waiting.id)).toBe('needs');
      expect(await groupOf(fresh.id)).toBe('not_started');
      expect(await groupOf(done.id)).toBe('done');
      await expect
        .poll(() => page.locator(`[data-item="${waiting.id}"] .row-reason`).innerText())
        .toBe('approve review');
      await expect.poll(() => page.locator('.count-needs').innerText()).toBe('1 NEED YOU');
      // Node ticks: build passed, waiting at review, finish not reached.
      const ticks = page.locator(`[data-item="${waiting.id}"] .ticks`);
      await expect.poll(() => ticks.getAttribute('aria-label')).toBe('at node 2 of 3');
      const tick = ticks.locator('.tick');
      expect(await tick.count()).toBe(3);
      expect(await Promise.all([0, 1, 2].map((n) => tick.nth(n).getAttribute('class')))).toEqual([
        'tick tick-done',
        'tick tick-waiting',
        'tick tick-pending',
      ]);
      await shot(page, 'board');

      // Grouped by chain and sorted by title, from the URL alone.
      await page.goto(`${jig.url}/?group=chain&sort=title`);
      await page.locator('h2.group').first().waitFor();
      expect(await page.locator('h2.group').allInnerTexts()).toEqual(['GATED 3']);
      expect(await page.locator('.row-title').allInnerTexts()).toEqual([
        'Already done',
        'Not started yet',
        'Waits at the gate',
      ]);
      expect(await page.getByLabel('Group by').inputValue()).toBe('chain');
      await page.goto(`${jig.url}/`);
      await page.getByRole('heading', { name: /Needs you/ }).waitFor();

      // Filed elsewhere (the API), it appears without a reload.
      const live = await file('Arrives live', false);
      await page.locator(`[data-item="${live.id}"]`).waitFor();
      expect(await groupOf(live.id)).toBe('not_started');
    });

    it('peeks at an item from the board: overview, config with the budget edit, and its main move', async () => {
      const item = await file('Peek at me', false);
      const { page } = s;
      await page.goto(`${jig.url}/`);
      await page.locator(`[data-item="${item.id}"] .row-title`).click();
      const peek = page.getByRole('complementary', { name: 'Peek' });
      await peek.getByRole('heading', { name: 'Peek at me' }).waitFor();
      expect(page.url()).toContain(`peek=${item.id}`);
      await peek.getByRole('tab', { name: 'Config' }).click();
      await peek.getByRole('button', { name: 'Edit the budget' }).click();
      await peek.getByLabel('New cap in dollars').fill('5');
      await peek.getByRole('button', { name: 'Raise' }).click();
      await peek.getByText("of $5.00 (the item's cap)").waitFor();
      expect((await api('GET', `/api/work-items/${item.id}`)).json.budget_cap).toMatchObject({
        cap_usd: 5,
        key: 'item',
      });
      await shot(page, 'peek');
      await peek.getByRole('button', { name: 'Start' }).click();
      await until(jig, item.id, (i) => i.status === 'stopped' && i.stop?.kind === 'gate');
      await peek.getByRole('link', { name: 'Review' }).waitFor();
      await peek.getByRole('button', { name: 'Close the panel' }).click();
      await expect.poll(() => page.url().includes('peek=')).toBe(false);
    });

    it('files an item from the composer with the dry-run line, and finds it with Ctrl+K', async () => {
      const { page } = s;
      await page.goto(`${jig.url}/`);
      await page.getByRole('heading', { name: /Needs you/ }).waitFor();
      await page.keyboard.press('c');
      const dialog = page.getByRole('dialog', { name: 'New work item' });
      await dialog.waitFor();
      await dialog.getByLabel('Title').fill('Composed in the browser');
      await dialog.getByLabel('Chain').selectOption('gated');
      await expect.poll(() => dialog.getByRole('status').innerText()).toBe('3 of 3 nodes run · 1 gate');
      await shot(page, 'composer');
      await dialog.getByRole('button', { name: 'Create paused' }).click();
      await page.getByRole('heading', { name: 'Composed in the browser' }).waitFor();
      const id = page.url().split('/').pop()!;
      expect((await api('GET', `/api/work-items/${id}`)).json).toMatchObject({
        status: 'paused',
        chain: 'gated',
      });

      await page.goto(`${jig.url}/`);
      await page.getByRole('heading', { name: /Needs you/ }).waitFor();
      await page.keyboard.press('Control+k');
      const search = page.getByRole('dialog', { name: 'Search' });
      await search.getByPlaceholder(/Find a work item/).fill('composed');
      await shot(page, 'search');
      await page.keyboard.press('Enter');
      await page.waitForURL(`**/work-items/${id}`);
    });

    it('approves a gate on the item page and the item completes', async () => {
      const item = await file('Approve me', true, 'gated', { implements: ['shop-a1'] });
      await until(jig, item.id, (i) => i.status === 'stopped' && i.stop?.kind === 'gate');
      const { page } = s;
      await page.goto(`${jig.url}/work-items/${item.id}`);
      await page.getByText('Waiting for your review at review').waitFor();
      // The graph draws every node of the chain, each with where it stands.
      const node = (id: string) => page.locator(`.react-flow__node[data-id="${id}"] .gn-state`);
      await node('finish').waitFor();
      expect(await node('build').innerText()).toMatch(/^done · \d+ (ms|s)$/);
      expect(await node('review').innerText()).toMatch(/^waiting for you/);
      expect(await node('finish').innerText()).toBe('not run');
      expect(await page.locator('.react-flow__edge').count()).toBe(3); // two in order, one reject arc
      await page.locator('.react-flow__node[data-id="build"]').click();
      const inspector = page.getByRole('complementary', { name: 'Node build' });
      await inspector.getByText('build.main.touch').waitFor();
      // A task of the node: its last run, what it was given, what it left, its log.
      await inspector.getByRole('button', { name: 'Task build.main.touch' }).click();
      const task = inspector.getByRole('region', { name: 'Task build.main.touch' });
      await task.getByText(/^done, exit 0 · run 1 time$/).waitFor();
      await task.getByRole('tab', { name: 'Input' }).click();
      expect(await task.getByRole('list', { name: 'Command line' }).innerText()).toContain(
        'git commit -qm built',
      );
      await task.getByRole('tab', { name: 'Log' }).click();
      expect(await task.getByLabel('Log').innerText()).toBe('(empty)');
      await task.getByRole('tab', { name: 'Config' }).click();
      expect(JSON.parse(await task.getByLabel('Task config').innerText())).toMatchObject({
        kind: 'subprocess',
        path: 'build.main.touch',
      });
      // The brief is edited in place.
      await page.getByRole('button', { name: 'Edit brief' }).click();
      await page.getByLabel('Brief', { exact: true }).fill('Touch out.txt, then stop for a look.');
      await page.getByRole('button', { name: 'Save the brief' }).click();
      await page.getByText('Touch out.txt, then stop for a look.').waitFor();
      expect((await api('GET', `/api/work-items/${item.id}`)).json.description).toBe(
        'Touch out.txt, then stop for a look.',
      );
      // What the gate's decision covers: the change size in the header, the changed files.
      expect(await page.locator('.item-meta .change-size').innerText()).toBe('+1 −0 in 1 file');
      // The issue it implements is named in the header (a bead has no page to link).
      // Trimmed: a line break before the span (a narrower header) drops its leading space in innerText.
      expect((await page.locator('.item-meta .item-issue').innerText()).trim()).toBe('· beads shop-a1');
      const files = page.getByRole('list', { name: 'changed files' });
      expect(await files.innerText()).toMatch(/^out\.txt \+1 −0 added$/);
      await shot(page, 'item-gate');
      // The worktree opens in the server machine's editor (a loopback browser may ask).
      await page.getByRole('button', { name: 'More ▾' }).click();
      await page.getByRole('menuitem', { name: 'Open worktree in editor' }).click();
      await page.getByText(/^opened .*worktrees.* in env$/).waitFor();
      await expect.poll(() => existsSync(editorLog) && readFileSync(editorLog, 'utf8')).toMatch(/worktrees/);
      // A node has an address of its own: the page opens with it in the Inspector.
      await page.goto(`${jig.url}/work-items/${item.id}/nodes/finish`);
      await page.getByRole('complementary', { name: 'Node finish' }).getByText('finish.main.last').waitFor();
      // A must-fix thread opened elsewhere shows at the gate, live, and holds Approve until resolved.
      const thread = await api('POST', `/api/work-items/${item.id}/threads`, {
        body: 'Check out.txt first.',
        file_path: 'out.txt',
        start_line: 1,
        label: 'must-fix',
      });
      expect(thread.status).toBe(201);
      const open = page.getByRole('region', { name: 'open review threads' });
      await open.getByText('Check out.txt first.').waitFor();
      expect(await open.innerText()).toContain('must-fix out.txt:1');
      expect(await page.getByRole('button', { name: 'Approve' }).isDisabled()).toBe(true);
      expect(await page.getByRole('note').innerText()).toMatch(
        /^Approve waits while a must-fix thread is open/,
      );
      await shot(page, 'item-gate-thread');
      await api('POST', `/api/work-items/${item.id}/threads/${thread.json.id}/resolve`, {});
      await expect.poll(() => page.getByRole('button', { name: 'Approve' }).isDisabled()).toBe(false);
      // The approval names the gate request the page showed, so it can never pass a later one.
      const shown = (await api('GET', `/api/work-items/${item.id}`)).json.gate_request;
      expect(typeof shown).toBe('number');
      const sent = page.waitForRequest((r) =>
        r.url().endsWith(`/api/work-items/${item.id}/gates/review/approve`),
      );
      await page.getByRole('button', { name: 'Approve' }).click();
      expect((await sent).postDataJSON()).toEqual({ request: shown });
      await until(jig, item.id, (i) => i.status === 'completed');
      await expect.poll(() => page.locator('.item-meta .status').innerText()).toBe('done');
    });

    it('renders the gate document as sanitized Markdown; a rejection with a note goes back to the gate node', async () => {
      const item = await file('Review a spec', true, 'doc');
      await until(jig, item.id, (i) => i.status === 'stopped' && i.stop?.kind === 'gate');
      const { page } = s;
      await page.goto(`${jig.url}/work-items/${item.id}`);
      const doc = page.getByRole('article', { name: 'spec document' });
      await doc.locator('.markdown h1').waitFor();
      expect(await doc.locator('.markdown h1').innerText()).toBe('The spec');
      expect(await doc.locator('.markdown strong').innerText()).toBe('this');
      expect(await doc.locator('script').count()).toBe(0);
      expect(await doc.locator('img').getAttribute('src')).toBeNull();
      expect(await doc.locator('a').getAttribute('rel')).toBe('noopener noreferrer');
      expect(await page.evaluate('window.pwned === undefined')).toBe(true);
      // The agent task's input is the command line it ran, its output the result file it wrote.
      await page.locator('.react-flow__node[data-id="write"]').click();
      const inspector = page.getByRole('complementary', { name: 'Node write' });
      await inspector.getByRole('button', { name: 'Task write.main.author' }).click();
      const task = inspector.getByRole('region', { name: 'Task write.main.author' });
      await task.getByRole('tab', { name: 'Input' }).click();
      expect(await task.getByRole('list', { name: 'Command line' }).innerText()).toContain(
        'Your task: Write the spec.',
      );
      await task.getByRole('tab', { name: 'Output' }).click();
      expect(await task.getByLabel('Result file').innerText()).toContain('"status": "done"');
      await shot(page, 'item-document');
      await page.getByRole('button', { name: 'Reject…' }).click();
      await page.getByLabel(/What should change/).fill('Name the edge cases.');
      expect(await page.getByLabel('Go back to').inputValue()).toBe('');
      await page.getByRole('button', { name: 'Reject', exact: true }).click();
      await expect
        .poll(async () => (await events(jig, item.id)).filter((e) => e.type === 'gate_rejected').length)
        .toBe(1);
      const rejected = (await events(jig, item.id)).find((e) => e.type === 'gate_rejected');
      expect(rejected.payload).toMatchObject({
        gate: 'spec_review',
        note: 'Name the edge cases.',
        reject_to: 'write',
      });
    });

    it('walks a first-time user from no repository to a first item', async () => {
      const fresh = await startJig();
      const project = makeRepo({ 'package.json': '{"name":"demo","scripts":{"test":"node -e 0"}}\n' });
      const { page } = s;
      await page.goto(`${fresh.url}/`);
      await page.getByRole('heading', { name: 'Get started with Jig' }).waitFor();
      // Started in Jig's own clone, the server proposes no path: that clone is not what one connects.
      expect(await page.getByLabel('Path of a git checkout on this machine').inputValue()).toBe('');
      await page.getByLabel('Path of a git checkout on this machine').fill(project);
      await page.getByRole('button', { name: 'Look at it' }).click();
      await page.getByText('Tests:').waitFor();
      expect(await page.getByLabel(/Test command/).inputValue()).toBe('npm test');
      await page.getByRole('button', { name: 'Connect repo' }).click();
      await page.getByRole('heading', { name: '2. Chains and limits' }).waitFor();
      expect(await page.locator('.wizard-done').innerText()).toBe(
        `✓ Connected repo ${project} · tests: npm test`,
      );
      await page.getByText('Up to 3 items run at once').waitFor();
      // Whether tasks run jailed, and what this machine can jail them with (GET /api/sandbox).
      const jail = page.getByTestId('wizard-sandbox');
      await jail.waitFor();
      expect(await jail.innerText()).toMatch(
        /^Tasks run with this server's reach(: no sandbox is set\. (bubblewrap|podman|docker) works here; set it in Settings › Policy › Sandbox\.|, and no sandbox works here \(.+\)\.)$/,
      );
      await shot(page, 'wizard');
      await page.getByLabel('Title').fill('My first item');
      await page.getByRole('button', { name: 'Create paused' }).click();
      await page.getByRole('heading', { name: 'My first item' }).waitFor();
      const repos = (await http(`${fresh.url}/api/repos`)).json.repos;
      expect(repos.map((r: any) => [r.path, r.test_command, r.enabled])).toEqual([
        [project, 'npm test', true],
      ]);
      const items = (await http(`${fresh.url}/api/work-items`)).json.items;
      expect(items.map((i: any) => [i.title, i.chain, i.status])).toEqual([
        ['My first item', 'manual', 'paused'],
      ]);
    });

    it('reconnects after the server restarts and shows what happened while it was away', async () => {
      const first = await startJig();
      const port = new URL(first.url).port;
      const project = makeRepo();
      expect(
        (await http(`${first.url}/api/repos`, { method: 'POST', body: { path: project, test_command: '' } }))
          .status,
      ).toBe(201);
      const fileOn = async (url: string, title: string) =>
        (
          await http(`${url}/api/work-items`, {
            method: 'POST',
            body: { title, repo: project, chain: 'manual' },
          })
        ).json;
      const before = await fileOn(first.url, 'Before the restart');
      const { page } = s;
      await page.goto(`${first.url}/`);
      await page.locator(`[data-item="${before.id}"]`).waitFor();
      await page.locator('.live-live').waitFor();
      // While the server is away the browser logs each refused connection; a request that met the
      // stop on a kept-alive connection is reset, or answered 503 by the closing server (Fastify's
      // return503OnClosing): those, and only those, belong to this test, not to the board's own
      // console check below.
      const mark = s.problems.length;
      await first.stop();
      await page.locator('.live-reconnecting').getByText('reconnecting…').waitFor();
      const second = await startJig({ home: first.home, args: ['--port', port] });
      await page.locator('.live-live').waitFor();
      const after = await fileOn(second.url, 'After the restart');
      await page.locator(`[data-item="${after.id}"]`).waitFor();
      expect(await page.locator('.row-title').allInnerTexts()).toEqual([
        'After the restart',
        'Before the restart',
      ]);
      // Off the page before its server stops: a poll refused after this test would land in the
      // board's own console check below.
      await page.goto('about:blank');
      const during = s.problems.splice(mark);
      const away = new RegExp(
        String.raw`net::ERR_CONNECTION_(REFUSED|RESET)|status of 503 \(Service Unavailable\) \(http://127\.0\.0\.1:${port}/api/`,
      );
      expect(during.filter((p) => !away.test(p))).toEqual([]);
      await second.stop();
    });

    it('gives the pages outside the board its look, under the same CSP', async () => {
      const { page } = s;
      const mark = s.problems.length;
      for (const [path, title] of [
        ['/login', /Log in to Jig|No password is set/],
        ['/no-such-page', /Not found/],
      ] as const) {
        const res = await page.goto(`${jig.url}${path}`);
        expect(res?.headers()['content-security-policy']).not.toContain('unsafe-inline');
        await page.getByRole('heading', { name: title }).waitFor();
        // The page's own style element applied: the card of the board's look, not the browser's defaults.
        expect(await page.evaluate("getComputedStyle(document.querySelector('main')).borderRadius")).toBe(
          '10px',
        );
        await shot(page, `page${path.replace(/\//g, '-')}`);
      }
      // The not-found page is a 404 on purpose; the browser says so, and nothing else.
      expect(s.problems.splice(mark)).toEqual([
        `console: Failed to load resource: the server responded with a status of 404 (Not Found) (${jig.url}/no-such-page)`,
      ]);
    });

    it("offers the item's menu: run log, duplicate, and cancel with what it will do", async () => {
      const item = await file('Menu me', true);
      await until(jig, item.id, (i) => i.status === 'stopped' && i.stop?.kind === 'gate');
      const { page } = s;
      await page.goto(`${jig.url}/work-items/${item.id}`);
      const more = page.getByRole('button', { name: 'More ▾' });
      await more.click();
      await page.getByRole('menuitem', { name: 'View run log' }).click();
      const log = page.getByRole('dialog', { name: 'Run log of build.main.touch' });
      await log.waitFor();
      // The task only wrote a file and made a quiet commit: its output is empty, and the dialog says so.
      expect(await log.locator('pre').innerText()).toBe('(empty)');
      await log.getByText(/Session \S+, done; the last 64 KB/).waitFor();
      await log.getByRole('button', { name: 'Close' }).click();

      await more.click();
      await page.getByRole('menuitem', { name: 'Duplicate as a new item' }).click();
      await page.waitForURL((u) => !u.pathname.endsWith(item.id));
      const copy = page.url().split('/').pop()!;
      expect((await api('GET', `/api/work-items/${copy}`)).json).toMatchObject({
        title: 'Menu me',
        status: 'paused',
        source: 'duplicate',
      });

      await page.goto(`${jig.url}/work-items/${item.id}`);
      await more.click();
      await page.getByRole('menuitem', { name: 'Cancel…' }).click();
      const cancel = page.getByRole('dialog', { name: 'Cancel the item' });
      await cancel.getByText(/and branch jig\//).waitFor();
      await shot(page, 'item-cancel');
      await cancel.getByLabel(/Reason/).fill('Not needed after all');
      await cancel.getByRole('button', { name: 'Cancel the item' }).click();
      await until(jig, item.id, (i) => i.status === 'cancelled');
      const ended = (await events(jig, item.id)).find((e) => e.type === 'work_item_cancelled');
      expect(ended.payload).toMatchObject({ reason: 'Not needed after all' });
    });

    it("keeps /docs and /redoc working when the CDN cannot be reached, from Jig's own copies", async () => {
      const mark = s.problems.length;
      const foreignMark = s.foreign.length;
      const page = await s.context.newPage();
      const asked: string[] = [];
      page.on('request', (r) => asked.push(new URL(r.url()).pathname));
      // This machine cannot reach the CDN anyway; the route makes the failure the same everywhere.
      await page.route('https://cdn.jsdelivr.net/**', (route) => route.abort('internetdisconnected'));
      await page.goto(`${jig.url}/docs`);
      await page.locator('.swagger-ui .info .title').getByText('Jig').waitFor();
      expect(asked).toContain('/docs/vendor/swagger-ui-dist@5.35.0/swagger-ui-bundle.js');
      expect(asked).toContain('/docs/vendor/swagger-ui-dist@5.35.0/swagger-ui.css');
      await shot(page, 'docs-offline');
      await page.goto(`${jig.url}/redoc`);
      await page.locator('h1', { hasText: 'Jig' }).first().waitFor();
      expect(asked).toContain('/docs/vendor/redoc@2.5.4/redoc.standalone.js');
      await shot(page, 'redoc-offline');

      // When the CDN answers (here with the same pinned files), Jig's copies are not asked for.
      asked.length = 0;
      await page.unroute('https://cdn.jsdelivr.net/**');
      await page.route('https://cdn.jsdelivr.net/**', async (route) => {
        const name = new URL(route.request().url()).pathname.split('/').pop()!;
        const local = (
          await http(
            `${jig.url}/docs/vendor/${name.endsWith('.css') || name.startsWith('swagger') ? 'swagger-ui-dist@5.35.0' : 'redoc@2.5.4'}/${name}`,
          )
        ).text;
        await route.fulfill({
          body: local,
          contentType: name.endsWith('.css') ? 'text/css' : 'text/javascript',
          headers: { 'access-control-allow-origin': '*' },
        });
      });
      await page.goto(`${jig.url}/docs`);
      await page.locator('.swagger-ui .info .title').getByText('Jig').waitFor();
      expect(asked.filter((p) => p.startsWith('/docs/vendor/'))).toEqual([]);
      await page.close();
      // The refused CDN requests are this test's doing, and Redoc always shows its maker's logo from
      // its own host, which the page's CSP refuses before any request leaves; nothing else may be logged.
      const expected = [
        'cdn.jsdelivr.net',
        'ERR_INTERNET_DISCONNECTED',
        "Loading the image 'https://cdn.redoc.ly/",
      ];
      expect(s.problems.splice(mark).filter((p) => !expected.some((e) => p.includes(e)))).toEqual([]);
      // The viewers load their pinned files from the CDN first (the spec's rule); the board never does.
      expect(
        s.foreign
          .splice(foreignMark)
          .filter(
            (u) => !u.startsWith('https://cdn.jsdelivr.net/npm/') && !u.startsWith('https://cdn.redoc.ly/'),
          ),
      ).toEqual([]);
    });

    it("follows a running task's log as it grows", async () => {
      const item = await file('Count slowly', true, 'slow');
      await until(jig, item.id, (i) => i.status === 'running' && i.current_node === 'work');
      const { page } = s;
      await page.goto(`${jig.url}/work-items/${item.id}/nodes/work`);
      const inspector = page.getByRole('complementary', { name: 'Node work' });
      await inspector.getByRole('button', { name: 'Task work.main.count' }).click();
      const task = inspector.getByRole('region', { name: 'Task work.main.count' });
      await task.getByRole('tab', { name: 'Log' }).click();
      const log = task.getByLabel('Log');
      await expect.poll(() => log.innerText(), { timeout: 15_000 }).toContain('line 1');
      // Read on from where it was while the task runs: the later lines arrive without a reload.
      await expect.poll(() => log.innerText(), { timeout: 15_000 }).toBe('line 1\nline 2\nline 3\nline 4\n');
      await until(jig, item.id, (i) => i.status === 'completed');
    });

    it('lays the board out for a phone without sideways scroll', async () => {
      const phone = await s.context.newPage();
      await phone.setViewportSize({ width: 390, height: 844 });
      await phone.goto(`${jig.url}/`);
      await phone.getByRole('heading', { name: /Needs you/ }).waitFor();
      const wide = await phone.evaluate<number>('document.documentElement.scrollWidth');
      expect(wide).toBeLessThanOrEqual(390);
      await shot(phone, 'board-phone');
      // A gate is approved from its card.
      const waiting = await file('Approve on the phone', true);
      await until(jig, waiting.id, (i) => i.status === 'stopped' && i.stop?.kind === 'gate');
      await phone.getByRole('button', { name: 'Approve review of Approve on the phone' }).click();
      await until(jig, waiting.id, (i) => i.status === 'completed');
      await phone.close();
    });

    it('logged no console errors and asked no other host for anything', () => {
      expect(s.problems).toEqual([]);
      expect(s.foreign).toEqual([]);
    });
  },
);
