import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { harnessesYaml } from './helpers/agents.js';
import { events, post } from './helpers/engine.js';
import { GATED_CHAIN } from './helpers/gated-chain.js';
import { firstCheck } from './helpers/intake.js';
import { gitEnv, makeRepo } from './helpers/git.js';
import { BLOCKS, RELATES, startMockJira, type MockJiraIssue } from './helpers/mock-jira.js';
import { startMockLinear, type MockLinearIssue } from './helpers/mock-linear.js';
import { cleanupAll, http, startJig, tempHome, type JigProcess } from './helpers/server.js';

/*
 * Blocking edges from Linear and Jira (docs/intake.md, Blocking edges): an issue its tracker says
 * is blocked is filed after the items of its open blockers, in the same poll as they are; a done
 * blocker no longer blocks; one blocked by an issue auto-intake never files waits, said in the
 * poll's answer. Real server and repository, each tracker a recording mock on loopback.
 */

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
  await cleanupAll();
});

/** One connected repository on the gated chain, intake.yaml with `intake`; its first poll is empty. */
async function serve(
  intake: Record<string, unknown>,
  env: Record<string, string>,
): Promise<{ jig: JigProcess; repo: string }> {
  const home = tempHome();
  const repo = makeRepo({ 'README.md': '# app\n' });
  mkdirSync(join(home, 'config', 'chains'), { recursive: true });
  writeFileSync(join(home, 'config', 'chains', 'flow.yaml'), GATED_CHAIN);
  writeFileSync(
    join(home, 'config', 'repos.yaml'),
    stringify({ repos: [{ path: repo, test_command: '', setup_command: '', default_chain: 'flow' }] }),
  );
  writeFileSync(join(home, 'config', 'harnesses.yaml'), harnessesYaml());
  writeFileSync(
    join(home, 'config', 'intake.yaml'),
    stringify({ enabled: true, interval_s: 3600, priority_ceiling: 2, ...intake }),
  );
  const jig = await startJig({ home, env: { ...gitEnv, ...env } });
  // The poll at start found nothing: the issues are put in the tracker after it.
  expect(await firstCheck(jig)).toMatchObject({ ready: 0, started: [], skipped: [] });
  return { jig, repo };
}

/**
 * One poll files the blocker and, after it, the issue it blocks; the blocked item waits on the
 * blocker's item; the issue blocked by one never filed is skipped; a second poll knows both.
 */
async function pollAndCheck(
  jig: JigProcess,
  repo: string,
  o: {
    tracker: 'linear' | 'jira';
    blocker: string;
    blocked: string;
    waiting: string;
    titles: [string, string];
    url: string;
  },
): Promise<void> {
  const poll = await post(jig, '/api/intake/poll');
  expect(poll.status, poll.text).toBe(200);
  expect(poll.json).toEqual({
    id: expect.any(Number),
    at: expect.any(String),
    ready: 1,
    started: [expect.any(String), expect.any(String)],
    skipped: [{ bead: `${o.tracker}:${o.waiting}`, reason: 'blocked_by_unfiled' }],
  });
  const [first, second] = poll.json.started;
  const item = (await http(`${jig.url}/api/work-items/${second}`)).json;
  expect(item).toMatchObject({
    id: second,
    title: o.titles[1],
    status: 'blocked',
    source: 'auto_intake',
    dependencies: [{ id: first, title: o.titles[0], status: expect.any(String) }],
    waiting_on: [{ id: first, title: o.titles[0], status: expect.any(String) }],
    issues: [
      {
        tracker: o.tracker,
        id: o.blocked,
        priority: 2,
        how: 'auto_intake',
        closing: 'open',
        url: o.url,
      },
    ],
  });
  const blocker = (await http(`${jig.url}/api/work-items/${first}`)).json;
  expect(blocker).toMatchObject({
    title: o.titles[0],
    dependents: [{ id: second, title: o.titles[1], status: 'blocked' }],
    issues: [expect.objectContaining({ tracker: o.tracker, id: o.blocker })],
  });
  expect([item.dependents ?? [], blocker.dependencies ?? []]).toEqual([[], []]);
  const created = (await events(jig, second)).filter((e) => e.type === 'work_item_created');
  expect(created.map((e) => e.payload)).toEqual([
    {
      title: o.titles[1],
      repo,
      chain: 'flow',
      branch: expect.any(String),
      source: 'auto_intake',
      status: 'paused',
      after: [first],
      issues: [{ tracker: o.tracker, id: o.blocked, priority: 2 }],
    },
  ]);
  const createdFirst = (await events(jig, first)).find((e) => e.type === 'work_item_created');
  expect(createdFirst.payload.after).toBeUndefined();

  const again = await post(jig, '/api/intake/poll');
  expect(again.json).toEqual({
    id: expect.any(Number),
    at: expect.any(String),
    ready: 1,
    started: [],
    skipped: [
      { bead: `${o.tracker}:${o.blocker}`, reason: 'already_item' },
      { bead: `${o.tracker}:${o.blocked}`, reason: 'already_item' },
      { bead: `${o.tracker}:${o.waiting}`, reason: 'blocked_by_unfiled' },
    ],
  });
}

describe('blocking edges from Linear', () => {
  it('an issue a `blocks` relation says is blocked is filed after its blocker in one poll; completed and cancelled blockers and other relations are ignored; one blocked by an issue never filed waits', async () => {
    const KEY = 'lin_api_blocking';
    const linear = await startMockLinear(KEY);
    closers.push(() => linear.close());
    const li = (n: number, extra: Partial<MockLinearIssue> = {}): MockLinearIssue => ({
      id: `uuid-${n}`,
      identifier: `ENG-${n}`,
      title: `Linear ${n}`,
      description: `About ENG-${n}`,
      priority: 3,
      labels: ['jig'],
      stateType: 'unstarted',
      stateId: 'state-todo',
      children: 0,
      ...extra,
    });
    const { jig, repo } = await serve(
      { linear: { team: 'ENG', label: 'jig', api_url: linear.url } },
      { LINEAR_API_KEY: KEY },
    );
    linear.issues.push(
      li(1),
      li(2),
      li(3),
      // Not selected by the query: in progress, and without the label.
      li(7, { stateType: 'started' }),
      li(8, { labels: ['other'] }),
      li(9, { stateType: 'completed', stateId: 'state-done' }),
      li(10, { stateType: 'canceled', stateId: 'state-canceled' }),
    );
    linear.relations.push(
      { type: 'blocks', issue: 'ENG-9', relatedIssue: 'ENG-2' },
      { type: 'related', issue: 'ENG-3', relatedIssue: 'ENG-2' },
      { type: 'blocks', issue: 'ENG-1', relatedIssue: 'ENG-2' },
      { type: 'blocks', issue: 'ENG-10', relatedIssue: 'ENG-2' },
      // Among ENG-1's own relations, not its inverse ones: ENG-1 blocks, it does not wait.
      { type: 'blocks', issue: 'ENG-1', relatedIssue: 'ENG-3' },
      { type: 'blocks', issue: 'ENG-7', relatedIssue: 'ENG-3' },
      { type: 'duplicate', issue: 'ENG-8', relatedIssue: 'ENG-1' },
    );
    // Two relations a page: ENG-2's blocker ENG-1 is on the second, read through JigBlockers.
    linear.relationPageSize = 2;
    linear.pageSize = 50;
    await pollAndCheck(jig, repo, {
      tracker: 'linear',
      blocker: 'ENG-1',
      blocked: 'ENG-2',
      waiting: 'ENG-3',
      titles: ['Linear 1', 'Linear 2'],
      url: 'https://linear.app/acme/issue/ENG-2',
    });
    // The poll at start, then the two polls: ENG-2's relations past the first page read each time.
    const reads = linear.calls.filter((c) => ['JigIntake', 'JigBlockers'].includes(c.operation));
    const intake = ['JigIntake', { team: 'ENG', label: 'jig', after: null }];
    const rest = ['JigBlockers', { id: 'uuid-2', relationsAfter: '2' }];
    expect(reads.map((c) => [c.operation, c.variables])).toEqual([intake, intake, rest, intake, rest]);
  });
});

describe('blocking edges from Jira', () => {
  for (const flavour of ['Cloud', 'Data Center'] as const)
    it(`${flavour}: an issue an "is blocked by" link names is filed after its blocker in one poll; a done blocker and other links are ignored; one blocked by an issue not searched waits`, async () => {
      const TOKEN = 'jira_blocking_secret';
      const EMAIL = 'bot@acme.example';
      const cloud = flavour === 'Cloud';
      const jira = await startMockJira(
        cloud ? `Basic ${Buffer.from(`${EMAIL}:${TOKEN}`).toString('base64')}` : `Bearer ${TOKEN}`,
      );
      closers.push(() => jira.close());
      const ji = (n: number, status: MockJiraIssue['status'] = 'To Do'): MockJiraIssue => ({
        key: `SHOP-${n}`,
        summary: `Jira SHOP-${n}`,
        description: `About SHOP-${n}`,
        priority: 'Medium',
        type: 'Task',
        status,
      });
      const { jig, repo } = await serve(
        { jira: { site: jira.url, project: 'SHOP', ...(cloud ? { email: EMAIL } : {}) } },
        { JIRA_API_TOKEN: TOKEN },
      );
      jira.issues.push(ji(1), ji(2), ji(3), ji(7, 'In Progress'), ji(9, 'Done'));
      jira.links.push(
        { type: BLOCKS, from: 'SHOP-9', to: 'SHOP-2' },
        { type: RELATES, from: 'SHOP-3', to: 'SHOP-2' },
        { type: BLOCKS, from: 'SHOP-1', to: 'SHOP-2' },
        // SHOP-1 blocks SHOP-3 too, seen from SHOP-1 as outward: it does not make SHOP-1 wait.
        { type: BLOCKS, from: 'SHOP-1', to: 'SHOP-3' },
        // A site's own type with the same wording, in other case: SHOP-7 is never searched.
        {
          type: { name: 'Dependency', inward: 'Is Blocked By', outward: 'blocks' },
          from: 'SHOP-7',
          to: 'SHOP-3',
        },
      );
      jira.pageSize = 50;
      await pollAndCheck(jig, repo, {
        tracker: 'jira',
        blocker: 'SHOP-1',
        blocked: 'SHOP-2',
        waiting: 'SHOP-3',
        titles: ['Jira SHOP-1', 'Jira SHOP-2'],
        url: `${jira.url}/browse/SHOP-2`,
      });
      // The poll at start, then the two polls, each one page asking for the links.
      const searches = jira.requests.filter((r) => r.path.includes('/search'));
      expect(searches.map((r) => [r.method, r.path, r.query.fields])).toEqual(
        Array(3).fill([
          'GET',
          cloud ? '/rest/api/3/search/jql' : '/rest/api/2/search',
          'summary,description,priority,issuetype,issuelinks',
        ]),
      );
    });
});
