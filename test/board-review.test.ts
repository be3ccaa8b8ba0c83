import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentSetup } from './helpers/agents.js';
import { noChromium, openBrowser, shot, type Session } from './helpers/browser.js';
import { events, fileItem, until } from './helpers/engine.js';
import { cleanupAll, http, type JigProcess } from './helpers/server.js';

/*
 * The review page (docs/board/review.md) on a real item: `build` changes src/app.ts and writes
 * notes.txt (its rerun adds a line to notes.txt), its agent writes the plan the gate `review`
 * shows. At the gate a person reads the plan, marks a file viewed, leaves a must-fix comment on a
 * line (Approve is off), requests changes (the page says `build` reruns, fix round 1), and once
 * the item is back at the gate resolves the thread and approves.
 */
const CHAIN = `
nodes:
  - id: build
    kind: exec
    tasks:
      - id: change
        kind: subprocess
        run: >-
          if [ -f notes.txt ]; then echo three >> notes.txt;
          else sed -i 's/const b = 2;/const b = 3;/' src/app.ts && printf 'one\\ntwo\\n' > notes.txt && seq 1 1000 > big.txt; fi &&
          git add src/app.ts notes.txt big.txt && git commit -qm build
      - id: plan
        kind: agent
        harness: claude
        produces: plan
        prompt: Write the plan.
  - id: review
    kind: gate
    artifact: plan
    reject_to: build
`;
const PLAN = '# The plan\n\nSet **b** to 3 and keep notes.\n';

let jig: JigProcess;
let repo: string;
let s: Session;
const atGate = (i: any) => i.status === 'stopped' && i.stop?.kind === 'gate' && i.current_node === 'review';

beforeAll(async () => {
  if (noChromium) return;
  const script = join(mkdtempSync(join(tmpdir(), 'jig-review-board-')), 'script.json');
  writeFileSync(
    script,
    JSON.stringify({
      rules: [{ match: 'Write the plan', mode: 'done', artifact: PLAN }],
      default: { mode: 'done' },
    }),
  );
  ({ jig, repo } = await agentSetup(
    { reviewed: CHAIN },
    {
      env: { FAKE_AGENT_SCRIPT: script },
      repoFiles: { 'src/app.ts': 'const a = 1;\nconst b = 2;\nexport const sum = a + b;\n' },
    },
  ));
  s = await openBrowser();
}, 60_000);
afterAll(async () => {
  await s?.close();
  await cleanupAll();
});

describe.skipIf(noChromium !== null)(
  `the review page in chromium${noChromium ? ` (skipped: ${noChromium})` : ''}`,
  () => {
    it('a review with a must-fix comment requesting changes, then approving', async () => {
      const id: string = (await fileItem(jig, repo, 'reviewed')).id;
      const api = (p: string) => `${jig.url}/api/work-items/${id}${p}`;
      await until(jig, id, atGate);
      const page = await s.context.newPage();
      await page.goto(`${jig.url}/work-items/${id}/review`);

      // At the gate, the gate's document first, then the changed files.
      await page.getByRole('heading', { name: 'Review: Run reviewed' }).waitFor();
      await page.getByRole('status').filter({ hasText: 'Waiting for your review at review' }).waitFor();
      const plan = page.getByRole('article', { name: 'plan document' });
      await plan.getByRole('heading', { name: 'The plan' }).waitFor();
      await expect.poll(() => plan.locator('strong').textContent()).toBe('b');
      const tree = page.getByRole('navigation', { name: 'changed files' });
      await tree.getByRole('checkbox', { name: 'Viewed src/app.ts' }).waitFor();
      await tree.getByRole('checkbox', { name: 'Viewed notes.txt' }).waitFor();
      const app = page.getByRole('region', { name: 'diff of src/app.ts' });
      // The changed line, word diff on: only "2"/"3" marked.
      await expect.poll(() => app.locator('mark').allTextContents()).toEqual(['2', '3']);
      await shot(page, 'review-gate');
      await page.getByRole('button', { name: 'Fold big.txt' }).click();

      // Mark src/app.ts viewed: the server keeps the mark, the file folds.
      await tree.getByRole('checkbox', { name: 'Viewed src/app.ts' }).check();
      await expect
        .poll(() => tree.getByText('1 of', { exact: false }).textContent())
        .toMatch(/^1 of \d+ viewed$/);
      const viewedNow = async () =>
        (await http(api('/diff?format=stat'))).json.files.map((f: any) => [f.path, f.viewed]);
      await expect.poll(viewedNow).toEqual([
        ['big.txt', false],
        ['notes.txt', false],
        ['src/app.ts', true],
      ]);
      expect(await tree.getByRole('checkbox', { name: 'Viewed src/app.ts' }).isChecked()).toBe(true);
      await app.getByRole('button', { name: 'Unfold src/app.ts' }).waitFor();

      // A must-fix comment on notes.txt line 2, previewed as Markdown, kept pending.
      const notes = page.getByRole('region', { name: 'diff of notes.txt' });
      await notes.getByRole('button', { name: 'Comment on new line 2' }).click();
      const form = notes.getByRole('form', { name: 'Comment on notes.txt, new line 2' });
      await form.getByRole('textbox', { name: 'Comment' }).fill('Say **why** two.');
      await form.getByLabel('Label').selectOption('must-fix');
      await form.getByRole('tab', { name: 'Preview' }).click();
      await expect.poll(() => form.locator('.rv-preview strong').textContent()).toBe('why');
      await form.getByRole('button', { name: 'Add to your review' }).click();
      const pendingNote = notes.getByRole('article', { name: 'pending comment on notes.txt, line 2' });
      await pendingNote.getByText('must-fix').waitFor();
      await expect.poll(() => pendingNote.locator('strong').textContent()).toBe('why');
      const bar = page.getByRole('region', { name: 'Your review' });
      await bar.getByText('1 pending comment · 0 open threads · 1 must-fix').waitFor();
      await shot(page, 'review-comment');
      // Nothing posted yet: the comment lives in this browser until Finish review.
      expect((await http(api('/threads'))).json).toEqual({ threads: [] });

      // Finish review: Approve is off; Request changes says what reruns and which round.
      await bar.getByRole('button', { name: 'Finish review' }).click();
      const finish = bar.getByRole('dialog', { name: 'Finish review' });
      expect(await finish.getByRole('radio', { name: /^Approve/ }).isDisabled()).toBe(true);
      await finish.getByRole('radio', { name: /^Request changes/ }).check();
      await finish.getByRole('status').getByText('Reruns build — fix round 1', { exact: false }).waitFor();
      await finish.getByRole('textbox', { name: 'Summary' }).fill('Explain the notes.');
      await shot(page, 'review-request-changes');
      await finish.getByRole('button', { name: 'Submit review' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: 'Changes requested: build reruns (fix round 1).' })
        .waitFor();

      const posted = (await http(api('/threads'))).json.threads;
      expect(posted).toHaveLength(1);
      expect(posted[0]).toMatchObject({
        file_path: 'notes.txt',
        start_line: 2,
        end_line: 2,
        side: 'new',
        label: 'must-fix',
        suggestion: null,
        state: 'open',
        comments: [{ by: 'human', body: 'Say **why** two.', claim: null }],
      });
      const rejected = (await events(jig, id)).filter((e) => e.type === 'gate_rejected');
      expect(rejected).toHaveLength(1);
      expect(rejected[0].payload.note).toContain('Explain the notes.');
      expect(rejected[0].payload.note).toContain('Say **why** two.');

      // Back at the gate after build's second run (its second attempt).
      await expect
        .poll(async () => {
          const item = (await http(api(''))).json;
          const diff = (await http(api('/diff?format=name_only'))).json;
          return atGate(item) && diff.attempts.filter((a: any) => a.node === 'build').length === 2;
        })
        .toBe(true);

      // The thread now sits under its line; resolve it, and Approve comes back.
      const thread = notes.getByRole('article', { name: 'thread on notes.txt, line 2' });
      await thread.getByRole('button', { name: 'Resolve' }).click();
      await thread.getByRole('button', { name: 'Reopen' }).waitFor();
      await bar.getByText('0 pending comments · 0 open threads').waitFor();
      expect((await http(api('/threads'))).json.threads.map((t: any) => [t.id, t.state])).toEqual([
        [posted[0].id, 'resolved'],
      ]);

      // The review approves what was read: a stale digest is refused and nothing moves.
      const stale = await http(api('/review'), {
        method: 'POST',
        body: { outcome: 'approve', digest: '0'.repeat(64) },
      });
      expect([stale.status, stale.json.code]).toEqual([409, 'document_changed']);
      expect(atGate((await http(api(''))).json)).toBe(true);
      const notApprove = await http(api('/review'), {
        method: 'POST',
        body: { outcome: 'comment', summary: 'x', digest: '0'.repeat(64) },
      });
      expect([notApprove.status, notApprove.json.code]).toEqual([422, 'validation_failed']);
      const artifact = (await http(api('/artifact'))).json;

      await bar.getByRole('button', { name: 'Finish review' }).click();
      await finish.getByRole('radio', { name: /^Approve/ }).check();
      await finish.getByText('passes the gate review').waitFor();
      await shot(page, 'review-approve');
      const shown = (await http(api(''))).json.gate_request;
      const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/${id}/review`));
      await finish.getByRole('button', { name: 'Submit review' }).click();
      // Sent with the digest of the document on the page, and the gate request the page showed.
      expect((await sent).postDataJSON()).toEqual({
        outcome: 'approve',
        digest: artifact.digest,
        request: shown,
      });
      await page.getByRole('status').filter({ hasText: 'Approved: review passed.' }).waitFor();
      const done = await until(jig, id, (i) => i.status === 'completed');
      expect(done.status).toBe('completed');
      const approved = (await events(jig, id)).filter((e) => e.type === 'gate_approved');
      expect(approved).toHaveLength(1);
      // The review recorded what it looked at: "your last review" compares from there.
      const since = await http(api('/compare?from=last_review&to=latest&format=name_only'));
      expect(since.status).toBe(200);
      expect(since.json.totals.files).toBe(0);
      await page.close();
    });

    it('side by side: a range comment with a suggestion, sent as a comment; an attempt compared', async () => {
      const id: string = (await fileItem(jig, repo, 'reviewed')).id;
      const api = (p: string) => `${jig.url}/api/work-items/${id}${p}`;
      await until(jig, id, atGate);
      const page = await s.context.newPage();
      await page.goto(`${jig.url}/work-items/${id}/review`);
      await page.getByRole('button', { name: 'Side by side' }).click();
      // The changed line's two sides on one row, each with its own word marked.
      const app = page.getByRole('region', { name: 'diff of src/app.ts' });
      await expect
        .poll(() => app.locator('tr:has(mark) td').allTextContents())
        .toEqual(['2', '−const b = 2;', '2', '+const b = 3;']);

      // Lines 1 to 2 of notes.txt: click one, shift-click the other; suggest their replacement.
      const notes = page.getByRole('region', { name: 'diff of notes.txt' });
      await notes.getByRole('button', { name: 'Comment on new line 1' }).click();
      await notes.getByRole('button', { name: 'Comment on new line 2' }).click({ modifiers: ['Shift'] });
      const form = notes.getByRole('form', { name: 'Comment on notes.txt, new lines 1–2' });
      await form.getByRole('textbox', { name: 'Comment' }).fill('Shorter, please.');
      await form.getByLabel('Label').selectOption('nit');
      await form.getByRole('checkbox', { name: 'Suggest a change' }).check();
      const suggested = form.getByRole('textbox', { name: 'Suggested lines' });
      expect(await suggested.inputValue()).toBe('one\ntwo');
      await suggested.fill('one and two');
      await form.getByRole('button', { name: 'Add to your review' }).click();
      await notes
        .getByRole('article', { name: 'pending comment on notes.txt, lines 1–2' })
        .getByText('one and two')
        .waitFor();

      // Finish review as a comment: the thread is posted, nothing moves.
      const bar = page.getByRole('region', { name: 'Your review' });
      await bar.getByRole('button', { name: 'Finish review' }).click();
      const finish = bar.getByRole('dialog', { name: 'Finish review' });
      expect(await finish.getByRole('radio', { name: /^Comment/ }).isChecked()).toBe(true);
      await finish.getByRole('button', { name: 'Submit review' }).click();
      await page.getByRole('status').filter({ hasText: 'Comment recorded.' }).waitFor();
      const threads = (await http(api('/threads'))).json.threads;
      expect(threads).toHaveLength(1);
      expect(threads[0]).toMatchObject({
        file_path: 'notes.txt',
        start_line: 1,
        end_line: 2,
        side: 'new',
        label: 'nit',
        suggestion: 'one and two',
        state: 'open',
        lines_now: { start: 1, end: 2 },
        comments: [{ by: 'human', body: 'Shorter, please.' }],
      });
      expect(atGate((await http(api(''))).json)).toBe(true);
      const thread = notes.getByRole('article', { name: 'thread on notes.txt, lines 1–2' });
      await thread.getByText('Suggested change').waitFor();
      await shot(page, 'review-side-by-side');
      // The same in the dark scheme, for a person to look at.
      await page.emulateMedia({ colorScheme: 'dark' });
      await shot(page, 'review-dark');
      await page.emulateMedia({ colorScheme: 'light' });

      // A thousand added lines: 400 drawn, the rest on asking.
      const big = page.getByRole('region', { name: 'diff of big.txt' });
      await big.getByText('600 of 1000 not drawn yet').waitFor();
      expect(await big.locator('td.rv-code').count()).toBe(2 * 400);
      await big.getByRole('button', { name: 'Show 600 more lines' }).click();
      await expect.poll(() => big.locator('td.rv-code').count()).toBe(2 * 1000);
      expect(await big.getByText('not drawn yet').count()).toBe(0);

      // Base against the first attempt: the same files, read only (comments go on the worktree now).
      await page.getByRole('combobox', { name: 'Compare with' }).selectOption('attempt:1');
      await page.getByText('base', { exact: false }).filter({ hasText: '→ attempt:1' }).waitFor();
      expect(await notes.getByRole('button', { name: /^Comment on/ }).count()).toBe(0);
      const attempt = await http(api('/compare?from=base&to=attempt:1&format=stat'));
      expect(attempt.json.files.map((f: any) => f.path)).toEqual(['big.txt', 'notes.txt', 'src/app.ts']);
      await page.close();
    });

    it('logged no console errors and asked no other host for anything', () => {
      expect(s.problems).toEqual([]);
      expect(s.foreign).toEqual([]);
    });
  },
);
