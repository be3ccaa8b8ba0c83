import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './helpers/mcp.js';
import { agentSetup, jsonLines } from './helpers/agents.js';
import { events, fileItem, post, until } from './helpers/engine.js';
import { cleanupAll, http, type JigProcess } from './helpers/server.js';

/*
 * Review threads and reviews on a real item: `build` writes a.txt (a second run puts a line on
 * top, so threads' lines move) and an agent (the fake claude) is told what to do; the gate
 * `review` goes back to `build`. A must-fix thread blocks approval; a request for changes reruns
 * `build` with the threads in the agent's brief; the agent answers with a claim; approval passes.
 */
const CHAIN = `
nodes:
  - id: build
    kind: exec
    tasks:
      - id: write
        kind: subprocess
        run: >-
          if [ -f a.txt ]; then (echo top; cat a.txt) > t && mv t a.txt; else printf '1\\n2\\n3\\n4\\n5\\n' > a.txt; fi &&
          git add a.txt && git commit -qm a
      - id: author
        kind: agent
        harness: claude
        prompt: Implement the change.
  - id: review
    kind: gate
    message: Review the change
    reject_to: build
`;

let jig: JigProcess;
let repo: string;
let log: string;
let id: string;
const url = (p: string) => `${jig.url}/api/work-items/${id}${p}`;
const atGate = (i: any) => i.status === 'stopped' && i.current_node === 'review';
const asAgent = { 'x-jig-work-item': '' };

beforeAll(async () => {
  log = join(mkdtempSync(join(tmpdir(), 'jig-threads-')), 'prompts.jsonl');
  ({ jig, repo } = await agentSetup(
    { reviewed: CHAIN },
    { env: { FAKE_AGENT_MODE: 'done', FAKE_AGENT_PROMPT_LOG: log } },
  ));
  id = (await fileItem(jig, repo, 'reviewed')).id;
  asAgent['x-jig-work-item'] = id;
  await until(jig, id, atGate);
});
afterAll(cleanupAll);

describe('review threads', () => {
  it('refuses a path outside the worktree, lines without a file, and a suggestion on old lines', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [
        { file_path: '/etc/passwd' },
        'body.file_path: /etc/passwd is absolute; name the file relative to the worktree',
      ],
      [
        { file_path: 'src/../../x' },
        'body.file_path: src/../../x contains ..; name the file relative to the worktree',
      ],
      [
        { file_path: 'a.txt', start_line: 2, side: 'old', suggestion: 'x' },
        'body.suggestion: a suggestion replaces new-side lines; it cannot go on the old side',
      ],
      [{ start_line: 2 }, 'body.start_line: place the comment in a file with file_path'],
      [{ file_path: 'a.txt', start_line: 4, end_line: 2 }, 'body.end_line: 2 is before start_line 4'],
      [{ claim: 'fixed' }, 'body.claim: a claim answers a thread; pass thread_id'],
    ];
    for (const [extra, detail] of cases) {
      const r = await post(jig, `/api/work-items/${id}/threads`, { body: 'look', ...extra });
      expect(r.status, detail).toBe(422);
      expect(r.json).toEqual({ code: 'validation_failed', detail });
    }
    expect((await http(url('/threads'))).json).toEqual({ threads: [] });
  });

  it('blocks approval on a must-fix; a request for changes reruns build with the threads; the agent claims a fix', async () => {
    const t1 = await post(jig, `/api/work-items/${id}/threads`, {
      body: 'Lines 2 and 3 are wrong.',
      file_path: 'a.txt',
      start_line: 2,
      end_line: 3,
      label: 'must-fix',
      suggestion: 'two\nthree',
    });
    expect(t1.status, t1.text).toBe(201);
    expect(t1.json).toMatchObject({
      file_path: 'a.txt',
      start_line: 2,
      end_line: 3,
      side: 'new',
      label: 'must-fix',
      state: 'open',
      lines_now: { start: 2, end: 3 },
      outdated: false,
      claim: null,
      comments: [{ by: 'human', body: 'Lines 2 and 3 are wrong.', claim: null }],
    });
    expect(t1.json.anchor_sha).toMatch(/^[0-9a-f]{40}$/);
    const t2 = await post(jig, `/api/work-items/${id}/threads`, { body: 'Why a.txt?', label: 'question' });
    expect(t2.json).toMatchObject({ file_path: null, lines_now: null, label: 'question' });

    const refused = {
      code: 'must_fix_open',
      detail: `1 must-fix review thread(s) still open (${t1.json.id}): resolve them, or have them fixed, before approving`,
    };
    const viaReview = await post(jig, `/api/work-items/${id}/review`, { outcome: 'approve' });
    expect(viaReview.status).toBe(409);
    expect(viaReview.json).toEqual(refused);
    const viaGate = await post(jig, `/api/work-items/${id}/gates/review/approve`, {});
    expect(viaGate.json).toEqual(refused);

    expect((await http(url('/fix-target'))).json).toEqual({
      node: 'build',
      gate: 'review',
      round: 1,
      open_threads: 2,
      reason: null,
    });
    const worker = await http(url('/review'), {
      method: 'POST',
      body: { outcome: 'comment' },
      headers: asAgent,
    });
    expect(worker.status).toBe(403);
    expect(worker.json.code).toBe('worker_refused');

    const before = jsonLines(log).length;
    const asked = await post(jig, `/api/work-items/${id}/review`, {
      outcome: 'request_changes',
      summary: 'Tighten the middle.',
    });
    expect(asked.status, asked.text).toBe(200);
    expect(asked.json.review).toMatchObject({
      outcome: 'request_changes',
      gate: 'review',
      node: 'build',
      round: 1,
      summary: 'Tighten the middle.',
    });
    await until(jig, id, (i) => atGate(i) && i.updated_at !== asked.json.item.updated_at);
    await until(jig, id, atGate);
    const prompts = jsonLines(log).slice(before);
    expect(prompts.length).toBeGreaterThan(0);
    const brief = JSON.stringify(prompts.at(-1));
    expect(brief).toContain('fix round 1');
    expect(brief).toContain('Tighten the middle.');
    expect(brief).toContain(`[${t1.json.id}] a.txt:2-3 (must-fix)`);
    expect(brief).toContain('Lines 2 and 3 are wrong.');
    expect(brief).toContain(`[${t2.json.id}] (question)`);

    // The rerun put a line on top of a.txt: the thread's lines moved down by one.
    const listed = (await http(url('/threads?open_only=1'))).json.threads;
    expect(listed.map((t: any) => [t.id, t.lines_now])).toEqual([
      [t1.json.id, { start: 3, end: 4 }],
      [t2.json.id, null],
    ]);

    // The agent answers from its task, and claims the fix; it may not resolve or open threads.
    const reply = await http(url('/threads'), {
      method: 'POST',
      body: { thread_id: t1.json.id, body: 'Fixed both lines.', claim: 'fixed' },
      headers: asAgent,
    });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.json.claim).toBe('fixed');
    expect(reply.json.comments.map((c: any) => [c.by, c.body, c.claim])).toEqual([
      ['human', 'Lines 2 and 3 are wrong.', null],
      ['agent', 'Fixed both lines.', 'fixed'],
    ]);
    const selfResolve = await http(url(`/threads/${t1.json.id}/resolve`), {
      method: 'POST',
      headers: asAgent,
    });
    expect(selfResolve.status).toBe(403);
    const selfOpen = await http(url('/threads'), { method: 'POST', body: { body: 'x' }, headers: asAgent });
    expect(selfOpen.json).toEqual({
      code: 'worker_refused',
      detail: `a worker may not open a review thread on its own work item (${id}); a person does that`,
    });
    const badReply = await post(jig, `/api/work-items/${id}/threads`, { thread_id: 'tnope', body: 'x' });
    expect(badReply.status).toBe(404);
    expect(badReply.json.code).toBe('thread_not_found');

    const resolved = await post(jig, `/api/work-items/${id}/threads/${t1.json.id}/resolve`);
    expect(resolved.json.state).toBe('resolved');
    const reopened = await post(jig, `/api/work-items/${id}/threads/${t1.json.id}/reopen`);
    expect(reopened.json.state).toBe('open');
    await post(jig, `/api/work-items/${id}/threads/${t1.json.id}/resolve`);

    const approved = await post(jig, `/api/work-items/${id}/gates/review/review`, {
      outcome: 'approve',
      summary: 'Good now.',
    });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.json.review).toMatchObject({
      outcome: 'approve',
      gate: 'review',
      node: null,
      round: null,
    });
    await until(jig, id, (i) => i.status === 'completed');
    const since = await http(url('/compare?from=last_review&format=name_only'));
    expect(since.status).toBe(200);
    expect(since.json.from.sha).toBe(approved.json.review.sha);
    const kinds = (await events(jig, id)).map((e) => e.type);
    expect(kinds.filter((k) => k === 'review_submitted')).toHaveLength(2);
    expect(kinds.filter((k) => k === 'thread_updated').length).toBeGreaterThanOrEqual(5);
    const fix = await http(url('/fix-target'));
    expect(fix.json).toMatchObject({
      node: null,
      round: 2,
      reason: expect.stringContaining('the item is completed'),
    });
    const late = await post(jig, `/api/work-items/${id}/review`, {
      outcome: 'request_changes',
      summary: 'More.',
    });
    expect(late.status).toBe(409);
    expect(late.json.code).toBe('no_fix_target');
  });

  it('the MCP review tools read and answer threads through the same routes', async () => {
    const client = new Client({ name: 'jig-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${jig.url}/mcp`)));
    try {
      const listed = await call(client, 'list_threads', { work_item_id: id, open_only: false });
      expect(listed.isError, listed.text).toBe(false);
      expect(listed.data.threads).toHaveLength(2);
      const opened = await call(client, 'add_review_comment', {
        work_item_id: id,
        body: 'One more look.',
        label: 'nit',
      });
      expect(opened.isError, opened.text).toBe(false);
      expect(opened.data).toMatchObject({ label: 'nit', state: 'open' });
      const resolved = await call(client, 'resolve_thread', { work_item_id: id, thread_id: opened.data.id });
      expect(resolved.data.state).toBe('resolved');
    } finally {
      await client.close();
    }
  });
});
