import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { harnessesYaml } from './helpers/agents.js';
import { events, post, until } from './helpers/engine.js';
import { eventually } from './helpers/eventually.js';
import { GATED_CHAIN } from './helpers/gated-chain.js';
import { firstCheck } from './helpers/intake.js';
import { git, gitEnv, makeRepo } from './helpers/git.js';
import { startMockGitHub } from './helpers/mock-github.js';
import { startMockJira } from './helpers/mock-jira.js';
import { startMockLinear } from './helpers/mock-linear.js';
import { cleanupAll, http, startJig, tempHome, type JigProcess } from './helpers/server.js';

/*
 * Auto-intake beyond beads (docs/intake.md): GitHub issues by label, a Linear team and a Jira
 * project, each through a recording mock of its API on loopback, on a real server with real
 * repositories. The same rules and skip reasons as beads; comments back on the issue when the item
 * needs a person or ends; the issue closed by the merge request, or through the tracker's API.
 */

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
  await cleanupAll();
});

const POLL = 'wait: {polling: {initial_interval: 1s, max_interval: 2s}}';
const MR_CHAIN = `
nodes:
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
        target: mr.open_draft
  - id: review
    kind: gate
    message: Look at the merge request
  - id: ready
    kind: exec
    tasks:
      - id: ready
        kind: forge
        target: mr.mark_ready
  - id: merge
    kind: exec
    tasks:
      - id: merge
        kind: forge
        target: mr.merge
        ${POLL}
`;

/** A home with one connected repository on `chain`, intake.yaml as given, and the server started. */
async function serve(o: {
  chain: string;
  intake: Record<string, unknown>;
  repoExtra?: Record<string, unknown>;
  env?: Record<string, string>;
  repo?: string;
}): Promise<{ jig: JigProcess; repo: string }> {
  const home = tempHome();
  const repo = o.repo ?? makeRepo({ 'README.md': '# app\n' });
  mkdirSync(join(home, 'config', 'chains'), { recursive: true });
  writeFileSync(join(home, 'config', 'chains', 'flow.yaml'), o.chain);
  writeFileSync(
    join(home, 'config', 'repos.yaml'),
    stringify({
      repos: [{ path: repo, test_command: '', setup_command: '', default_chain: 'flow', ...o.repoExtra }],
    }),
  );
  writeFileSync(join(home, 'config', 'harnesses.yaml'), harnessesYaml());
  writeFileSync(
    join(home, 'config', 'intake.yaml'),
    stringify({ enabled: true, interval_s: 3600, priority_ceiling: 2, ...o.intake }),
  );
  const jig = await startJig({ home, env: { ...gitEnv, ...o.env } });
  return { jig, repo };
}

/** Events of a kind, once there are `n` of them (trackers are told after the move commits). */
const eventsOf = (jig: JigProcess, id: string, type: string, n = 1): Promise<any[]> =>
  eventually(
    async () => {
      const found = (await events(jig, id)).filter((e) => e.type === type);
      return found.length >= n && found;
    },
    { what: `${n} ${type} event(s) of ${id}` },
  );

describe('auto-intake from GitHub issues', () => {
  it('files the labelled issue, skips by priority label and epic, reads every page, comments at the gate and the end, and the merge request closes it', async () => {
    const TOKEN = 'ghp_intake_secret';
    const gh = await startMockGitHub(TOKEN);
    closers.push(() => gh.close());
    gh.maxPerPage = 2;
    const issue = (number: number, labels: string[], title = `Issue ${number}`) => ({
      number,
      title,
      body: `Body of ${number}`,
      state: 'open' as const,
      labels: labels.map((name) => ({ name })),
      html_url: `https://github.example/acme/app/issues/${number}`,
    });
    gh.issues.push(
      issue(101, ['jig', 'P3'], 'Fix the typo'),
      issue(102, ['jig', 'P1']),
      issue(103, ['jig', 'epic', 'P3']),
      issue(104, ['jig']),
      issue(105, ['bug', 'P3']),
    );
    const repo = makeRepo({ 'README.md': '# app\n' });
    const origin = join(tempHome('jig-origin-'), 'origin.git');
    git(repo, 'init', '-q', '--bare', origin);
    git(repo, 'remote', 'add', 'origin', origin);
    git(repo, 'push', '-q', 'origin', 'main');
    gh.shaOf = (branch) => git(origin, 'rev-parse', `refs/heads/${branch}`);
    const { jig } = await serve({
      repo,
      chain: MR_CHAIN,
      repoExtra: { forge: 'github', project: 'acme/app', forge_url: gh.url, merge_method: 'squash' },
      intake: {
        issues: { label: 'jig', priority_labels: { P0: 0, P1: 1, P2: 2, P3: 3 }, default_priority: null },
      },
      env: { JIG_FORGE_TOKEN: TOKEN },
    });
    const first = await firstCheck(jig);
    expect(first).toEqual({
      id: expect.any(Number),
      at: expect.any(String),
      ready: 4,
      started: [expect.any(String)],
      skipped: [
        { bead: 'github:acme/app#102', reason: 'above_priority_ceiling' },
        { bead: 'github:acme/app#103', reason: 'epic' },
        { bead: 'github:acme/app#104', reason: 'above_priority_ceiling' },
      ],
    });
    // Two issues a page: the label's four issues took two pages.
    const lists = gh.requests.filter((r) => r.path === '/repos/acme/app/issues' && r.method === 'GET');
    expect(lists.map((r) => [r.query.labels, r.query.state, r.query.page ?? '1'])).toEqual([
      ['jig', 'open', '1'],
      ['jig', 'open', '2'],
    ]);
    const id = first.started[0];
    const atGate = await until(jig, id, (i) => i.status === 'stopped' && i.stop?.kind === 'gate');
    expect(atGate).toMatchObject({
      title: 'Fix the typo',
      description:
        'Body of 101\n\nGitHub issue acme/app#101 (P3), filed by auto-intake: https://github.example/acme/app/issues/101',
      source: 'auto_intake',
      issues: [
        {
          tracker: 'github',
          id: 'acme/app#101',
          priority: 3,
          how: 'auto_intake',
          closing: 'open',
          url: 'https://github.example/acme/app/issues/101',
        },
      ],
    });
    // The draft merge request says it closes the issue.
    expect(gh.pulls[0]?.body).toBe('Closes #101');
    const gateNote = await eventsOf(jig, id, 'issue_commented');
    expect(gateNote.map((e) => e.payload)).toEqual([
      { tracker: 'github', issue: 'acme/app#101', about: 'gate' },
    ]);
    expect(gh.issueComments[101]).toEqual([
      {
        id: expect.any(Number),
        body: `Jig work item ${id} (Fix the typo) waits for a person at gate review: Look at the merge request\n\nSee it with \`jig view show ${id}\` or on the board.`,
      },
    ]);
    expect((await post(jig, `/api/work-items/${id}/gates/review/approve`)).status).toBe(200);
    await until(jig, id, (i) => i.status === 'completed');
    const closed = await eventsOf(jig, id, 'issues_closed');
    expect(closed.map((e) => e.payload)).toEqual([{ tracker: 'github', issues: ['acme/app#101'] }]);
    expect(gh.issues.find((i) => i.number === 101)).toMatchObject({
      state: 'closed',
      state_reason: 'completed',
    });
    const notes = await eventsOf(jig, id, 'issue_commented', 2);
    expect(notes.map((e) => e.payload.about)).toEqual(['gate', 'completed']);
    expect((gh.issueComments[101]?.[1] as { body: string }).body).toBe(
      `Jig work item ${id} (Fix the typo) completed.\n\nMerge request: https://github.example/acme/app/pull/1 (merged)\n\nSee it with \`jig view show ${id}\` or on the board.`,
    );
    expect((await http(`${jig.url}/api/work-items/${id}`)).json.issues[0].closing).toBe('closed');
    // The token went only in the Authorization header of each call.
    expect(new Set(gh.requests.map((r) => r.authorization))).toEqual(new Set([`token ${TOKEN}`]));

    const again = await post(jig, '/api/intake/poll');
    expect(again.json.skipped).toEqual([
      { bead: 'github:acme/app#102', reason: 'above_priority_ceiling' },
      { bead: 'github:acme/app#103', reason: 'epic' },
      { bead: 'github:acme/app#104', reason: 'above_priority_ceiling' },
    ]);
    expect(again.json.ready).toBe(3);
  });
});

describe('auto-intake from Linear', () => {
  it('reads the team label page by page, maps priorities, skips a parent as an epic, comments, and closes into the first completed state', async () => {
    const KEY = 'lin_api_intake_secret';
    const linear = await startMockLinear(KEY);
    closers.push(() => linear.close());
    const li = (n: number, priority: number, extra: Partial<(typeof linear.issues)[number]> = {}) => ({
      id: `uuid-${n}`,
      identifier: `ENG-${n}`,
      title: `Linear ${n}`,
      description: `About ENG-${n}`,
      priority,
      labels: ['jig'],
      stateType: 'unstarted',
      stateId: 'state-todo',
      children: 0,
      ...extra,
    });
    linear.issues.push(
      li(1, 3),
      li(2, 1),
      li(3, 4, { children: 2 }),
      li(4, 0),
      li(5, 3, { stateType: 'started' }),
      li(6, 3, { labels: ['other'] }),
    );
    const { jig } = await serve({
      chain: GATED_CHAIN,
      intake: { linear: { team: 'ENG', label: 'jig', api_url: linear.url, default_priority: null } },
      env: { LINEAR_API_KEY: KEY },
    });
    const first = await firstCheck(jig);
    expect(first).toMatchObject({
      ready: 4,
      started: [expect.any(String)],
      skipped: [
        { bead: 'linear:ENG-2', reason: 'above_priority_ceiling' },
        { bead: 'linear:ENG-3', reason: 'epic' },
        { bead: 'linear:ENG-4', reason: 'above_priority_ceiling' },
      ],
    });
    const pages = linear.calls.filter((c) => c.operation === 'JigIntake');
    expect(pages.map((c) => c.variables)).toEqual([
      { team: 'ENG', label: 'jig', after: null },
      { team: 'ENG', label: 'jig', after: '2' },
    ]);
    const id = first.started[0];
    const item = await until(jig, id, (i) => i.status === 'stopped' && i.stop?.kind === 'gate');
    expect(item.issues).toEqual([
      {
        tracker: 'linear',
        id: 'ENG-1',
        priority: 2,
        how: 'auto_intake',
        closing: 'open',
        url: 'https://linear.app/acme/issue/ENG-1',
      },
    ]);
    await eventsOf(jig, id, 'issue_commented');
    expect(linear.comments).toEqual([
      {
        issueId: 'uuid-1',
        body: `Jig work item ${id} (Linear 1) waits for a person at gate review: Look at out.txt\n\nSee it with \`jig view show ${id}\` or on the board.`,
      },
    ]);
    expect((await post(jig, `/api/work-items/${id}/gates/review/approve`)).status).toBe(200);
    await until(jig, id, (i) => i.status === 'completed');
    const closed = await eventsOf(jig, id, 'issues_closed');
    expect(closed.map((e) => e.payload)).toEqual([{ tracker: 'linear', issues: ['ENG-1'] }]);
    expect(linear.issues[0]).toMatchObject({ stateType: 'completed', stateId: 'state-done' });
    expect(linear.calls.filter((c) => c.operation === 'JigClose').map((c) => c.variables)).toEqual([
      { id: 'uuid-1', stateId: 'state-done' },
    ]);
    expect(new Set(linear.calls.map((c) => c.authorization))).toEqual(new Set([KEY]));
  });

  it('a refused key or a missing one reads nothing and fails no poll', async () => {
    const linear = await startMockLinear('lin_api_right');
    closers.push(() => linear.close());
    linear.issues.push({
      id: 'u1',
      identifier: 'ENG-1',
      title: 'T',
      description: '',
      priority: 3,
      labels: ['jig'],
      stateType: 'unstarted',
      stateId: 's',
      children: 0,
    });
    const { jig } = await serve({
      chain: GATED_CHAIN,
      intake: { linear: { team: 'ENG', label: 'jig', api_url: linear.url } },
      env: { LINEAR_API_KEY: 'lin_api_wrong' },
    });
    expect(await firstCheck(jig)).toMatchObject({ ready: 0, started: [], skipped: [] });
    expect(linear.calls.map((c) => c.operation)).toEqual(['JigIntake']);
    // The log is on stderr, a pipe of its own: it can arrive after the check the API shows.
    await eventually(
      () => (jig.stdout() + jig.stderr()).includes('linear ENG: list issues: LINEAR_API_KEY was refused'),
      { what: 'the refusal in the log' },
    );
    expect(jig.stdout() + jig.stderr()).not.toContain('lin_api_wrong');

    const none = await serve({
      chain: GATED_CHAIN,
      intake: { linear: { team: 'ENG', label: 'jig', api_url: linear.url } },
      env: { LINEAR_API_KEY: '' },
    });
    expect(await firstCheck(none.jig)).toMatchObject({ ready: 0, started: [], skipped: [] });
    await eventually(
      () =>
        (none.jig.stdout() + none.jig.stderr()).includes(
          'auto-intake: linear ENG skipped: LINEAR_API_KEY is not set',
        ),
      { what: 'the skip in the log' },
    );
    expect(linear.calls).toHaveLength(1);
  });
});

describe('auto-intake from Jira', () => {
  it('Cloud: searches the project page by page with basic auth, maps priority names, skips the epic, comments in ADF; a cancelled item leaves the issue open', async () => {
    const TOKEN = 'jira_intake_secret';
    const EMAIL = 'bot@acme.example';
    const jira = await startMockJira(`Basic ${Buffer.from(`${EMAIL}:${TOKEN}`).toString('base64')}`);
    closers.push(() => jira.close());
    const ji = (key: string, priority: string | null, type = 'Task') => ({
      key,
      summary: `Jira ${key}`,
      description: `About ${key}`,
      priority,
      type,
      status: 'To Do' as const,
    });
    jira.issues.push(
      ji('SHOP-1', 'Medium'),
      ji('SHOP-2', 'Highest'),
      ji('SHOP-3', 'Low', 'Epic'),
      ji('SHOP-4', 'Blocker'),
    );
    const { jig } = await serve({
      chain: GATED_CHAIN,
      intake: { jira: { site: jira.url, project: 'SHOP', jql: 'labels = jig', email: EMAIL } },
      env: { JIRA_API_TOKEN: TOKEN },
    });
    const first = await firstCheck(jig);
    expect(first).toMatchObject({
      ready: 4,
      started: [expect.any(String)],
      skipped: [
        { bead: 'jira:SHOP-2', reason: 'above_priority_ceiling' },
        { bead: 'jira:SHOP-4', reason: 'above_priority_ceiling' },
        { bead: 'jira:SHOP-3', reason: 'epic' },
      ],
    });
    const searches = jira.requests.filter((r) => r.path === '/rest/api/3/search/jql');
    expect(searches.map((r) => [r.query.jql, r.query.nextPageToken ?? null])).toEqual([
      ['project = "SHOP" AND (labels = jig) ORDER BY created ASC', null],
      ['project = "SHOP" AND (labels = jig) ORDER BY created ASC', '2'],
    ]);
    const id = first.started[0];
    const item = await until(jig, id, (i) => i.status === 'stopped' && i.stop?.kind === 'gate');
    expect(item).toMatchObject({
      description: `About SHOP-1\n\nJira issue SHOP-1 (P2), filed by auto-intake: ${jira.url}/browse/SHOP-1`,
      issues: [{ tracker: 'jira', id: 'SHOP-1', priority: 2, url: `${jira.url}/browse/SHOP-1` }],
    });
    await eventsOf(jig, id, 'issue_commented');
    expect(jira.comments[0]).toEqual({
      key: 'SHOP-1',
      body: {
        type: 'doc',
        version: 1,
        content: [
          {
            type: 'paragraph',
            content: [
              {
                type: 'text',
                text: `Jig work item ${id} (Jira SHOP-1) waits for a person at gate review: Look at out.txt`,
              },
            ],
          },
          {
            type: 'paragraph',
            content: [{ type: 'text', text: `See it with \`jig view show ${id}\` or on the board.` }],
          },
        ],
      },
    });
    expect((await post(jig, `/api/work-items/${id}/cancel`)).status).toBe(200);
    const left = await eventsOf(jig, id, 'issues_left_open');
    expect(left.map((e) => e.payload)).toEqual([
      { tracker: 'jira', issues: ['SHOP-1'], reason: 'the item was cancelled' },
    ]);
    const notes = await eventsOf(jig, id, 'issue_commented', 2);
    expect(notes.map((e) => e.payload.about)).toEqual(['gate', 'cancelled']);
    expect(jira.requests.some((r) => r.path.endsWith('/transitions'))).toBe(false);
    expect(jira.issues[0]?.status).toBe('To Do');
  });
});
