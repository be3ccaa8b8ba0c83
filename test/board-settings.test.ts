import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytes } from '../web/src/settings/bytes.js';
import { agentSetup } from './helpers/agents.js';
import { noChromium, openBrowser, shot, type Session } from './helpers/browser.js';
import { post, until } from './helpers/engine.js';
import { GATED_CHAIN } from './helpers/gated-chain.js';
import { listenLoopback } from './helpers/mock-http.js';
import { cleanupAll, http, type JigProcess } from './helpers/server.js';

/*
 * Settings on a real server in Chromium: a policy cap and a schedule changed through their drafts
 * and published (checked in the API and on disk), a webhook saved and tested against a local
 * receiver, access, appearance, and the storage clean-up's preview before the real one.
 */

let jig: JigProcess;
let repo: string;
let home: string;
let s: Session;
let cancelled: string;
const hook = { url: '', got: [] as string[], server: null as Server | null };

const api = async (path: string) => {
  const r = await http(`${jig.url}${path}`);
  expect(r.status, r.text).toBe(200);
  return r.json;
};

beforeAll(async () => {
  if (noChromium) return;
  ({ jig, repo, home } = await agentSetup({ gated: GATED_CHAIN }));
  // An item cancelled at its gate keeps its worktree: what a clean-up reclaims.
  const r = await post(jig, '/api/work-items', { title: 'Cancel me', repo, chain: 'gated', start: true });
  expect(r.status, r.text).toBe(201);
  cancelled = r.json.id;
  await until(jig, cancelled, (i) => i.status === 'stopped' && i.stop?.kind === 'gate');
  expect((await post(jig, `/api/work-items/${cancelled}/cancel`)).status).toBe(200);
  hook.server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hook.got.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  hook.url = `${await listenLoopback(hook.server)}/hooks/settings`;
  s = await openBrowser();
}, 60_000);
afterAll(async () => {
  await s?.close();
  await new Promise((r) => (hook.server ? hook.server.close(r) : r(null)));
  await cleanupAll();
});

describe.skipIf(noChromium !== null)(
  `settings in chromium${noChromium ? ` (skipped: ${noChromium})` : ''}`,
  () => {
    it('changes a policy cap through the draft, previews it on a chain and publishes it', async () => {
      const { page } = s;
      const before = readFileSync(join(home, 'config', 'policy.yaml'), 'utf8');
      await page.goto(`${jig.url}/settings`);
      await page.waitForURL(/\/settings\/policy$/);
      await page.getByRole('link', { name: 'Policy' }).waitFor();

      // A value the schema refuses is stored, and its problem shows at the field; Undo takes it back.
      const running = page.getByLabel('Items running at once');
      await running.fill('0');
      await running.press('Enter');
      await page.getByRole('status').filter({ hasText: 'Draft: 1 change, 1 to fix' }).waitFor();
      const problem = (await api('/api/drafts/policy/policy')).result.problems[0];
      expect(problem).toMatchObject({ path: '', field: 'max_concurrent', scope: 'housekeeping' });
      await page.getByRole('alert').filter({ hasText: problem.message }).waitFor();
      await expect.poll(() => running.getAttribute('aria-invalid')).toBe('true');
      // Not loading, the draft has no preview: it is not asked for (the server would answer 422).
      await page.getByText("No preview while the draft's policy.yaml does not load.").waitFor();
      await page.getByRole('button', { name: 'Undo' }).click();
      await page.getByRole('status').filter({ hasText: 'No unpublished changes' }).waitFor();
      expect((await api('/api/drafts/policy/policy')).draft).toBe(false);
      await expect.poll(() => running.inputValue()).toBe('3');
      await page.getByRole('heading', { name: 'Caps per scope' }).scrollIntoViewIfNeeded();
      await shot(page, 'settings-policy-caps');

      const cap = page.getByRole('textbox', { name: 'Tasks Budget ($) maximum' });
      await cap.fill('5');
      await cap.press('Enter');
      await page.getByRole('status').filter({ hasText: 'Draft: 1 change' }).waitFor();
      const draft = await api('/api/drafts/policy/policy');
      expect(draft.result.changes).toEqual([
        {
          path: 'maxima.tasks.budget_usd',
          kind: 'add',
          summary: 'no bound -> 5',
          file: 'policy.yaml',
        },
      ]);
      // The preview lays the draft over the published policy: the gated chain's task is bound by it.
      await page.getByLabel('Chain', { exact: true }).selectOption('gated');
      const preview = page.getByRole('table', { name: 'Caps of chain gated' });
      const task = preview.getByRole('row', { name: /build\.main\.touch/ });
      await task.getByText('≤ 5 (maxima.tasks)').waitFor();
      const p = await api('/api/drafts/policy/policy/preview?chain=gated');
      expect(p.scopes.find((x: any) => x.path === 'build.main.touch').caps.budget_usd).toEqual({
        value: null,
        source: 'default',
        maximum: { value: 5, level: 'maxima.tasks' },
        exceeds: false,
      });
      // Still unpublished: the running policy has no such bound.
      expect((await api('/api/policy')).maxima).toBeUndefined();
      await preview.scrollIntoViewIfNeeded();
      await shot(page, 'settings-policy');

      await page.getByRole('button', { name: 'Review & publish' }).click();
      const review = page.getByRole('region', { name: 'Review and publish' });
      await review.getByText('no bound -> 5').waitFor();
      await review.getByRole('button', { name: 'Publish' }).click();
      await page.getByRole('status').filter({ hasText: 'Published policy.yaml.' }).waitFor();
      expect((await api('/api/policy')).maxima).toEqual({ tasks: { budget_usd: 5 } });
      const after = readFileSync(join(home, 'config', 'policy.yaml'), 'utf8');
      expect(parse(after).maxima).toEqual({ tasks: { budget_usd: 5 } });
      // Written over the file's own text: every line that was there still is.
      for (const line of before.split('\n').filter((l) => l.trim().startsWith('#')))
        expect(after).toContain(line);
      expect((await api('/api/drafts/policy/policy')).draft).toBe(false);
      await expect.poll(() => cap.inputValue()).toBe('5');

      // The findings that start a fix loop: ticked into the draft, then discarded.
      // Controlled by the draft's answer, so it is ticked once the server has the op: a click, not check().
      await page.getByRole('checkbox', { name: 'minor' }).click();
      await page.getByRole('status').filter({ hasText: 'Draft: 1 change' }).waitFor();
      expect((await api('/api/drafts/policy/policy')).result.resolved.findings.loop_severities).toEqual({
        value: ['critical', 'important', 'minor'],
        source: 'policy',
      });
      await page.getByRole('button', { name: 'Discard draft' }).click();
      await page.getByRole('status').filter({ hasText: 'Draft discarded' }).waitFor();
      await expect.poll(() => page.getByRole('checkbox', { name: 'minor' }).isChecked()).toBe(false);
      expect((await api('/api/policy')).findings).toEqual({ loop_severities: ['critical', 'important'] });
    });

    it('adds a schedule in Auto-intake, publishes it and shows its next fire time', async () => {
      const { page } = s;
      await page.getByRole('link', { name: 'Auto-intake' }).click();
      await page.waitForURL(/\/settings\/auto-intake$/);
      await page.getByText('No schedules.').waitFor();
      await page.getByText('No auto-intake poll has run yet.').waitFor();
      const form = page.getByRole('form', { name: 'Add a schedule' });
      await form.getByLabel('Title').fill('Nightly tidy');
      await form.getByLabel('Cron (UTC)').fill('30 2 * * *');
      await form.getByLabel('Repository').selectOption(repo);
      await form.getByLabel('Chain').selectOption('gated');
      await form.getByLabel('Description').fill('Tidy the repo');
      await form.getByRole('button', { name: 'Add schedule' }).click();
      const row = page.getByRole('row', { name: /Nightly tidy/ });
      await row.getByText('after publish').waitFor();
      const poll = page.getByLabel('Poll every (s)');
      await poll.fill('600');
      await poll.press('Tab');
      // The schedule alone is a draft already: wait for the interval's change to have landed too.
      await expect
        .poll(async () => (await api('/api/drafts/intake/intake')).result.resolved.interval_s, {
          timeout: 15_000,
        })
        .toBe(600);
      await page
        .getByRole('status')
        .filter({ hasText: /Draft: \d+ changes/ })
        .waitFor();
      const draft = await api('/api/drafts/intake/intake');
      expect(draft.result.resolved.schedules).toEqual([
        {
          index: 0,
          cron: '30 2 * * *',
          repo,
          chain: 'gated',
          title: 'Nightly tidy',
          description: 'Tidy the repo',
        },
      ]);
      expect(draft.result.resolved.interval_s).toBe(600);
      expect(draft.result.problems).toEqual([]);

      await page.getByRole('button', { name: 'Review & publish' }).click();
      await page
        .getByRole('region', { name: 'Review and publish' })
        .getByRole('button', { name: 'Publish' })
        .click();
      await page.getByRole('status').filter({ hasText: 'Published intake.yaml.' }).waitFor();
      const intake = await api('/api/intake');
      expect(intake).toMatchObject({ interval_s: 600, intake_off: false, invalid_intake: null });
      expect(intake.schedules).toHaveLength(1);
      const sched = intake.schedules[0];
      expect(sched).toEqual({
        index: 0,
        source: 'intake',
        cron: '30 2 * * *',
        repo,
        chain: 'gated',
        title: 'Nightly tidy',
        description: 'Tidy the repo',
        next_fire_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT02:30:00(\.000)?Z$/),
        problems: [],
      });
      await expect.poll(() => row.locator('time').getAttribute('datetime')).toBe(sched.next_fire_at);
      expect(parse(readFileSync(join(home, 'config', 'intake.yaml'), 'utf8')).schedules).toEqual([
        { cron: '30 2 * * *', repo, chain: 'gated', title: 'Nightly tidy', description: 'Tidy the repo' },
      ]);
      await shot(page, 'settings-intake');

      // Edited in place, then discarded: the published schedule stays as it was.
      await row.getByRole('button', { name: 'Edit Nightly tidy' }).click();
      const edit = page.getByRole('form', { name: 'Edit schedule Nightly tidy' });
      await edit.getByLabel('Cron (UTC)').fill('45 3 * * *');
      await edit.getByRole('button', { name: 'Save schedule' }).click();
      await page
        .getByRole('row', { name: /Nightly tidy.*45 3/ })
        .getByText('after publish')
        .waitFor();
      const edited = await api('/api/drafts/intake/intake');
      expect(edited.result.changes).toEqual([
        {
          path: 'schedules.0.cron',
          kind: 'change',
          summary: '30 2 * * * -> 45 3 * * *',
          file: 'intake.yaml',
        },
      ]);
      await page.getByRole('button', { name: 'Discard draft' }).click();
      await page
        .getByRole('row', { name: /Nightly tidy.*30 2/ })
        .locator('time')
        .waitFor();
      expect((await api('/api/drafts/intake/intake')).draft).toBe(false);
      expect((await api('/api/intake')).schedules[0].cron).toBe('30 2 * * *');
    });

    it('saves a webhook and sends a test to it', async () => {
      const { page } = s;
      await page.getByRole('link', { name: 'Notifications' }).click();
      await page.getByRole('button', { name: 'Send a test' }).waitFor();
      expect(await page.getByRole('button', { name: 'Send a test' }).isDisabled()).toBe(true);
      await page.getByLabel('Send notifications').check();
      await page.getByLabel('Webhook URL').fill(hook.url);
      await page.getByLabel('An item completed').check();
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      expect(await api('/api/notify')).toEqual({
        enabled: true,
        url_set: true,
        secret_set: false,
        format: 'json',
        chat_id: null,
        base_url: null,
        events: ['gate_requested', 'work_item_needs_human', 'work_item_completed'],
        problem: null,
      });
      // Never shown back: the field only says it is set.
      await expect
        .poll(() => page.getByLabel('Webhook URL').getAttribute('placeholder'))
        .toBe('set — type to replace');
      await page.getByRole('button', { name: 'Send a test' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: 'Test sent: the webhook answered HTTP 200.' })
        .waitFor();
      expect(hook.got).toHaveLength(1);
      expect(JSON.parse(hook.got[0]!)).toMatchObject({ type: 'test', title: 'Notifications' });
      await shot(page, 'settings-notify');
    });

    it('changes the session length, sets a password and rotates the tokens after a confirm', async () => {
      const { page } = s;
      await page.getByRole('link', { name: 'Access' }).click();
      await page.getByRole('heading', { name: 'Where the board listens' }).waitFor();
      await page.getByLabel('Session length (days)').fill('14');
      await page.getByRole('button', { name: 'Save access' }).click();
      await expect.poll(async () => (await api('/api/access')).session_expiry_days).toBe(14);
      expect(parse(readFileSync(join(home, 'config', 'access.yaml'), 'utf8')).session_expiry_days).toBe(14);

      await page.getByLabel('New password').fill('a long passphrase here');
      await page.getByRole('button', { name: 'Set password' }).click();
      await page.getByRole('status').filter({ hasText: 'Password set.' }).waitFor();
      expect((await api('/api/access')).password_set).toBe(true);
      await page.getByLabel('Current password').waitFor();

      const tokens = () =>
        ['mcp-token', 'trigger-token'].map((f) => readFileSync(join(home, 'run', f), 'utf8'));
      const old = tokens();
      await page.getByRole('button', { name: 'Rotate tokens…' }).click();
      const confirm = page.getByRole('group', { name: 'Confirm token rotation' });
      await confirm.getByText('is refused from its next request').waitFor();
      // Nothing is rotated before the confirm.
      expect(tokens()).toEqual(old);
      await shot(page, 'settings-access');
      await confirm.getByRole('button', { name: 'Rotate both tokens' }).click();
      await page.getByRole('status').filter({ hasText: 'Rotated: mcp, trigger.' }).waitFor();
      const now = tokens();
      expect(now[0]).not.toBe(old[0]);
      expect(now[1]).not.toBe(old[1]);
    });

    it('saves the theme and board options', async () => {
      const { page } = s;
      await page.getByRole('link', { name: 'Appearance' }).click();
      await page.getByLabel('Mode').selectOption('dark');
      await page.getByRole('status').filter({ hasText: 'Saved to theme.yaml.' }).waitFor();
      await page.getByLabel('Open items in').selectOption('full');
      await expect.poll(async () => (await api('/api/theme')).board.open_in).toBe('full');
      expect(await api('/api/theme')).toEqual({
        mode: 'dark',
        surface: 'neutral',
        accent: 'indigo',
        colour_amount: 40,
        density: 'comfortable',
        board: { group_by: 'status', show_done: 5, open_in: 'full' },
        problem: null,
      });
      expect(parse(readFileSync(join(home, 'config', 'theme.yaml'), 'utf8'))).toMatchObject({
        mode: 'dark',
        board: { open_in: 'full' },
      });
      await shot(page, 'settings-appearance');
    });

    it('puts the theme and the board options in force on the board', async () => {
      const { page } = s;
      // Dark mode, saved above: the page's own colours follow whatever the browser prefers.
      expect(await page.evaluate<string>('document.documentElement.dataset.theme')).toBe('dark');
      const bg = await page.evaluate<string>('getComputedStyle(document.documentElement).backgroundColor');
      const filed = await http(`${jig.url}/api/work-items`, {
        method: 'POST',
        body: { title: 'Opens in full', repo, chain: 'gated', start: false },
      });
      expect(filed.status, filed.text).toBe(201);
      const saved = await http(`${jig.url}/api/theme`, {
        method: 'PUT',
        body: { mode: 'light', board: { group_by: 'repo' } },
      });
      expect(saved.status, saved.text).toBe(200);
      await page.goto(`${jig.url}/`);
      await expect.poll(() => page.evaluate<string>('document.documentElement.dataset.theme')).toBe('light');
      expect(
        await page.evaluate<string>('getComputedStyle(document.documentElement).backgroundColor'),
      ).not.toBe(bg);
      // Grouped by repository with no `group` in the address, as the option says.
      await expect.poll(() => page.getByLabel('Group by').inputValue()).toBe('repo');
      expect(new URL(page.url()).search).toBe('');
      // "Open items in: the full page": a row's click opens the item's page, not the side panel.
      await page.locator(`[data-item="${filed.json.id}"] .row-title`).click();
      await page.waitForURL(`${jig.url}/work-items/${filed.json.id}`);
      await page.getByRole('heading', { name: 'Opens in full' }).waitFor();
      const reset = await http(`${jig.url}/api/theme`, {
        method: 'PUT',
        body: { mode: 'system', board: { group_by: 'status', open_in: 'peek' } },
      });
      expect(reset.status, reset.text).toBe(200);
      await page.goto(`${jig.url}/settings/appearance`);
    });

    it('shows disk use and previews the clean-up before removing what it listed', async () => {
      const { page } = s;
      await page.getByRole('link', { name: 'Storage' }).click();
      const storage = await api('/api/storage');
      // The database grows with every event; the worktrees hold still while nothing runs.
      await page.getByRole('row', { name: `Worktrees ${bytes(storage.worktrees_bytes)}` }).waitFor();
      await page.getByText(jig.home, { exact: true }).waitFor();
      await page.getByRole('row', { name: /Cancel me/ }).waitFor();
      const dry = await http(`${jig.url}/api/storage/cleanup?dry_run=1&older_than_days=0`, {
        method: 'POST',
      });
      expect(dry.json.items.map((i: any) => i.id)).toEqual([cancelled]);
      await page.getByRole('button', { name: 'Preview clean-up' }).click();
      const preview = page.getByRole('region', { name: 'Clean-up preview' });
      await preview.getByText(`1 worktree would go, freeing ${bytes(dry.json.bytes)}:`).waitFor();
      await preview.getByText(dry.json.items[0].worktree_path).waitFor();
      // The preview removed nothing.
      expect(existsSync(dry.json.items[0].worktree_path)).toBe(true);
      await shot(page, 'settings-storage');
      await preview.getByRole('button', { name: 'Remove 1 worktree' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: `Removed 1 worktree, freeing ${bytes(dry.json.bytes)}.` })
        .waitFor();
      expect(existsSync(dry.json.items[0].worktree_path)).toBe(false);
      expect((await api('/api/storage')).reclaimable).toEqual({ items: 0, bytes: 0 });
    });

    it('logged no console errors and asked no other host for anything', () => {
      expect(s.problems).toEqual([]);
      expect(s.foreign).toEqual([]);
    });
  },
);
