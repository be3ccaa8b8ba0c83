import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, fileItem, post, until } from './helpers/engine.js';
import { eventually } from './helpers/eventually.js';
import { git, gitEnv, makeRepo } from './helpers/git.js';
import { startMockGitHub, type MockGitHub } from './helpers/mock-github.js';
import { cleanupAll, http, startJig, tempHome, type JigProcess } from './helpers/server.js';

/*
 * More of the forge's waits on the real server: review comments read past the first page become a
 * repair's findings; a wait that outlives its task's total_time_cap_minutes is a `wait` stop; the
 * merge request watcher stops a running item whose merge request was closed, and records a close
 * for a stopped one.
 */
const TOKEN = 'ghp_watch_secret_value';
const POLL = 'wait: {polling: {initial_interval: 1s, max_interval: 1s}}';
const OPEN = `
  - id: change
    kind: exec
    tasks:
      - id: edit
        kind: subprocess
        run: "printf 'x\\\\n' > x.txt && git add x.txt && git commit -q -m 'add x'"
  - id: open
    kind: exec
    tasks:
      - id: open
        kind: forge
        target: mr.open_draft`;

const chains = (briefs: string): Record<string, string> => ({
  reviewed: `nodes:${OPEN}
  - id: review
    kind: exec
    steps:
      - id: bot
        tasks:
          - id: await
            kind: forge
            target: mr.automated_review
            ${POLL}
    fix_loop:
      steps:
        - id: repair
          tasks:
            - id: repair
              kind: subprocess
              run: "cp \\"$JIG_FIX_BRIEF\\" ${briefs}.part && mv ${briefs}.part ${briefs}/brief.md && printf 'renamed\\\\n' >> x.txt && git commit -q -am 'rename'"
        - id: sync
          tasks:
            - id: sync
              kind: forge
              target: mr.sync
      max_attempts: 2
`,
  timed: `nodes:${OPEN}
  - id: ci
    kind: exec
    tasks:
      - id: await
        kind: forge
        target: mr.ci
        ${POLL}
        policy:
          total_time_cap_minutes: 0.05
`,
  slow: `nodes:${OPEN}
  - id: work
    kind: exec
    tasks:
      - id: sleep
        kind: subprocess
        run: sleep 60
  - id: look
    kind: gate
`,
});

let gh: MockGitHub;
let jig: JigProcess;
let repo: string;
let origin: string;
let briefs: string;

beforeAll(async () => {
  gh = await startMockGitHub(TOKEN);
  repo = makeRepo();
  origin = join(tempHome('jig-origin-'), 'origin.git');
  briefs = tempHome('jig-briefs-');
  git(repo, 'init', '-q', '--bare', origin);
  git(repo, 'remote', 'add', 'origin', origin);
  git(repo, 'push', '-q', 'origin', 'main');
  gh.shaOf = (branch) => git(origin, 'rev-parse', `refs/heads/${branch}`);
  const home = tempHome();
  mkdirSync(join(home, 'config', 'chains'), { recursive: true });
  for (const [id, text] of Object.entries(chains(briefs)))
    writeFileSync(join(home, 'config', 'chains', `${id}.yaml`), text);
  writeFileSync(join(home, 'config', 'policy.yaml'), 'max_concurrent: 3\nforge_poll_s: 1\n');
  writeFileSync(
    join(home, 'config', 'repos.yaml'),
    `repos:\n  - path: ${repo}\n    test_command: ''\n    setup_command: ''\n    forge: github\n    project: acme/app\n    forge_url: ${gh.url}\n    automated_review:\n      bot: review-bot\n`,
  );
  jig = await startJig({ home, env: { ...gitEnv, JIG_FORGE_TOKEN: TOKEN } });
});
afterAll(async () => {
  await jig.stop();
  await gh.close();
  await cleanupAll();
});

const later = '2099-01-01T00:00:00Z';
const pullOf = (branch: string) => gh.pulls.find((p) => p.head.ref === branch)!;

describe('forge waits and the merge request watcher', () => {
  it("the review bot's comment on the second page of comments is a finding the repair gets", async () => {
    const item = await fileItem(jig, repo, 'reviewed');
    const waiting = await until(jig, item.id, (i) => i.status === 'waiting' || i.status === 'stopped');
    expect(waiting.status, JSON.stringify(waiting.stop)).toBe('waiting');
    const n = pullOf(waiting.branch).number;
    gh.issueComments[n] = [
      ...Array.from({ length: 104 }, (_, i) => ({
        id: i + 1,
        user: { login: 'someone' },
        body: `thanks ${i + 1}`,
        created_at: later,
      })),
      { id: 105, user: { login: 'review-bot' }, body: 'Please rename foo to bar.', created_at: later },
    ];
    // The repair task moves its copy in whole (cp, then mv): read as soon as it is there, a file
    // cp was still writing read empty in a full run.
    await eventually(() => readdirSync(briefs).length > 0, { what: `a brief in ${briefs}` });
    const [brief] = readdirSync(briefs).map((f) => readFileSync(join(briefs, f), 'utf8'));
    expect(brief).toContain('review-bot: Please rename foo to bar.');
    expect(brief).not.toContain('thanks 1');
    expect(gh.requests.some((r) => r.path.endsWith(`/issues/${n}/comments`) && r.query.page === '2')).toBe(
      true,
    );
    // The repair is pushed; the bot approves it.
    gh.issueComments[n] = [];
    gh.reviews[n] = [
      { id: 1, user: { login: 'review-bot' }, state: 'APPROVED', body: 'LGTM', submitted_at: later },
    ];
    const done = await until(jig, item.id, (i) => i.status === 'completed' || i.status === 'stopped');
    expect(done.status, JSON.stringify(done.stop)).toBe('completed');
    const ended = (await events(jig, item.id)).filter((e) => e.type === 'external_wait_ended');
    expect(ended.map((e) => [e.payload.outcome, e.payload.findings, e.payload.detail])).toEqual([
      ['failed', 1, '1 review comment(s) to address'],
      ['passed', 0, 'review-bot reviewed with nothing to fix'],
    ]);
  });

  it("a wait past its task's total_time_cap_minutes is a wait stop saying what it last saw", async () => {
    const item = await fileItem(jig, repo, 'timed');
    const stopped = await until(jig, item.id, (i) => i.status === 'stopped', 600);
    const sha = git(origin, 'rev-parse', `refs/heads/${stopped.branch}`);
    expect(stopped.stop).toEqual({
      kind: 'wait',
      reason: `ci.main.await (mr.ci) timed out: its total_time_cap_minutes (0.05) passed; the last check saw: no CI has reported on ${sha.slice(0, 12)} yet (a repository without CI sets ci_checks: false). Retry to wait again, or raise the cap with the item's policy_override`,
      suggested_action: null,
    });
    const sessions = (await http(`${jig.url}/api/work-items/${item.id}/sessions`)).json.sessions;
    expect(sessions.find((s: any) => s.task_path === 'ci.main.await').status).toBe('capped_out');
    const ended = (await events(jig, item.id)).filter((e) => e.type === 'external_wait_ended');
    expect(ended.map((e) => e.payload.outcome)).toEqual(['timed_out']);
    await post(jig, `/api/work-items/${item.id}/cancel`, {});
  });

  it('a running item whose merge request is closed stops (mr_closed); a stopped one records the close', async () => {
    const item = await fileItem(jig, repo, 'slow');
    const running = await until(jig, item.id, (i) => i.current_node === 'work' && i.status === 'running');
    await eventually(
      async () =>
        (await http(`${jig.url}/api/work-items/${item.id}/sessions`)).json.sessions.some(
          (s: any) => s.task_path === 'work.main.sleep',
        ),
      { what: 'the work.main.sleep session' },
    );
    const pull = pullOf(running.branch);
    pull.state = 'closed';
    const stopped = await until(jig, item.id, (i) => i.status === 'stopped');
    expect(stopped.stop.kind).toBe('mr_closed');
    // Its task ends too: recorded once the process group is gone, which may be a moment after the
    // item's stop is.
    await eventually(
      async () => {
        const sessions = (await http(`${jig.url}/api/work-items/${item.id}/sessions`)).json.sessions;
        const sleep = sessions.find((s: any) => s.task_path === 'work.main.sleep');
        expect(sleep.status).not.toBe('running');
        return true;
      },
      { what: 'the work.main.sleep session to end' },
    );
    const reopened = await post(jig, `/api/work-items/${item.id}/reopen-mr`);
    expect(reopened.status, reopened.text).toBe(200);
    expect(pull.state).toBe('open');
    await post(jig, `/api/work-items/${item.id}/cancel`, {});

    // A paused item stays paused; the close is recorded on its merge request.
    const other = await fileItem(jig, repo, 'slow');
    await until(jig, other.id, (i) => i.current_node === 'work' && i.status === 'running');
    const paused = await post(jig, `/api/work-items/${other.id}/pause`);
    expect(paused.status).toBe(200);
    const second = pullOf(paused.json.branch);
    second.state = 'closed';
    await eventually(
      async () =>
        (await http(`${jig.url}/api/work-items/${other.id}/merge-requests`)).json.merge_requests[0]?.state ===
        'closed',
      { what: 'the merge request recorded as closed' },
    );
    const after = (await http(`${jig.url}/api/work-items/${other.id}`)).json;
    expect(after.status).toBe('paused');
    const evs = await events(jig, other.id);
    expect(evs.filter((e) => e.type === 'mr_closed').map((e) => e.payload)).toEqual([
      { repo, number: second.number, url: second.html_url },
    ]);
    await post(jig, `/api/work-items/${other.id}/cancel`, {});
  });
});
