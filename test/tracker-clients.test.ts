import { afterEach, describe, expect, it } from 'vitest';
import { forgeIssues } from '../src/runtime/forge/issues-clients.js';
import { forgePriority } from '../src/runtime/intake/sources.js';
import { TrackerError } from '../src/runtime/intake/trackers/http.js';
import { adfText, JiraClient, jiraPriority } from '../src/runtime/intake/trackers/jira.js';
import { linearPriority } from '../src/runtime/intake/trackers/linear.js';
import { startMockGitea } from './helpers/mock-gitea.js';
import { startMockGitHub } from './helpers/mock-github.js';
import { startMockGitLab } from './helpers/mock-gitlab.js';
import { startMockJira } from './helpers/mock-jira.js';

/*
 * The tracker clients auto-intake uses, each against its recording mock on loopback: issues by label
 * read to the last page, a comment, a close; Jira Data Center's v2 dialect; the priority mappings.
 */

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

describe('forge issue clients', () => {
  it('GitHub: every page, pull requests left out, a comment, a close as completed', async () => {
    const gh = await startMockGitHub('t');
    closers.push(() => gh.close());
    gh.maxPerPage = 2;
    for (const n of [11, 12, 13])
      gh.issues.push({
        number: n,
        title: `I${n}`,
        body: '',
        state: 'open',
        labels: [{ name: 'jig' }],
        html_url: `https://github.example/acme/app/issues/${n}`,
      });
    gh.pulls.push({
      number: 1,
      node_id: 'PR_1',
      html_url: 'https://github.example/acme/app/pull/1',
      state: 'open',
      draft: false,
      merged: false,
      merged_at: null,
      merge_commit_sha: null,
      head: { ref: 'b', sha: 's' },
      base: { ref: 'main' },
      title: 'A pull',
      body: '',
      labels: [{ name: 'jig' }],
      reviewDecision: null,
    });
    const client = forgeIssues({ forge: 'github', project: 'acme/app', api_url: gh.url }, 't', 5000);
    const list = await client.labelled('jig');
    expect(list.map((i) => [i.number, i.title, i.labels, i.url])).toEqual([
      [11, 'I11', ['jig'], 'https://github.example/acme/app/issues/11'],
      [12, 'I12', ['jig'], 'https://github.example/acme/app/issues/12'],
      [13, 'I13', ['jig'], 'https://github.example/acme/app/issues/13'],
    ]);
    expect(gh.requests.filter((r) => r.path.endsWith('/issues')).length).toBe(2);
    await client.comment(12, 'hello');
    await client.close(12);
    expect(gh.issueComments[12]).toEqual([{ id: expect.any(Number), body: 'hello' }]);
    expect(gh.issues[1]).toMatchObject({ state: 'closed', state_reason: 'completed' });
  });

  it('GitLab: every page of opened issues with the label, a note, a close', async () => {
    const gl = await startMockGitLab('t');
    closers.push(() => gl.close());
    gl.maxPerPage = 2;
    for (const iid of [1, 2, 3])
      gl.issues.push({
        iid,
        title: `G${iid}`,
        description: `D${iid}`,
        state: 'opened',
        labels: ['jig', 'P2'],
      });
    gl.issues.push({ iid: 4, title: 'G4', description: '', state: 'closed', labels: ['jig'] });
    const client = forgeIssues(
      { forge: 'gitlab', project: 'group/app', api_url: `${gl.url}/api/v4` },
      't',
      5000,
    );
    const list = await client.labelled('jig');
    expect(list).toEqual(
      [1, 2, 3].map((n) => ({
        number: n,
        title: `G${n}`,
        body: `D${n}`,
        labels: ['jig', 'P2'],
        url: `https://gitlab.example/group/app/-/issues/${n}`,
      })),
    );
    await client.comment(2, 'note');
    await client.close(2);
    expect(gl.issueNotes[2]).toEqual(['note']);
    expect(gl.issues[1]?.state).toBe('closed');
  });

  it('Gitea: a server whose page is smaller than ours is read to its total, a comment, a close', async () => {
    const gt = await startMockGitea('t');
    closers.push(() => gt.close());
    gt.maxLimit = 2;
    for (const n of [5, 6, 7])
      gt.issues.push({ number: n, title: `T${n}`, body: 'b', state: 'open', labels: ['jig'] });
    gt.issues.push({ number: 8, title: 'T8', body: 'b', state: 'open', labels: ['other'] });
    const client = forgeIssues(
      { forge: 'gitea', project: 'acme/app', api_url: `${gt.url}/api/v1` },
      't',
      5000,
    );
    expect((await client.labelled('jig')).map((i) => i.number)).toEqual([5, 6, 7]);
    await client.comment(6, 'c');
    await client.close(6);
    expect(gt.issueComments[6]).toEqual(['c']);
    expect(gt.issues[1]?.state).toBe('closed');
  });
});

describe('Jira Data Center', () => {
  it('speaks v2 with a bearer token: search paged by startAt, plain-text comments, the done transition', async () => {
    const jira = await startMockJira('Bearer pat-secret');
    closers.push(() => jira.close());
    for (const n of [1, 2, 3])
      jira.issues.push({
        key: `OPS-${n}`,
        summary: `S${n}`,
        description: `D${n}`,
        priority: 'Major',
        type: 'Story',
        status: 'To Do',
      });
    const client = new JiraClient({ site: `${jira.url}/`, project: 'OPS' }, 'pat-secret', null, 5000);
    const found = await client.search();
    expect(found).toEqual(
      [1, 2, 3].map((n) => ({
        key: `OPS-${n}`,
        title: `S${n}`,
        description: `D${n}`,
        priorityName: 'Major',
        epic: false,
        url: `${jira.url}/browse/OPS-${n}`,
      })),
    );
    expect(jira.requests.map((r) => [r.path, r.query.startAt])).toEqual([
      ['/rest/api/2/search', '0'],
      ['/rest/api/2/search', '2'],
    ]);
    expect(jira.requests[0]?.query.jql).toBe(
      'project = "OPS" AND (statusCategory = "To Do") ORDER BY created ASC',
    );
    await client.comment('OPS-2', 'plain');
    await client.close('OPS-2');
    expect(jira.comments).toEqual([{ key: 'OPS-2', body: 'plain' }]);
    expect(jira.issues[1]?.status).toBe('Done');
  });

  it('a refused token is an auth error naming JIRA_API_TOKEN, without the token', async () => {
    const jira = await startMockJira('Bearer right');
    closers.push(() => jira.close());
    const err = await new JiraClient({ site: jira.url, project: 'OPS' }, 'wrong-token', null, 5000)
      .search()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TrackerError);
    expect((err as TrackerError).kind).toBe('auth');
    expect((err as TrackerError).message).toBe(
      'jira OPS: search: JIRA_API_TOKEN was refused (401: You are not authenticated.)',
    );
  });
});

describe('priorities on auto-intake scale', () => {
  it('maps forge labels (most urgent wins), Linear numbers and Jira names, with the defaults', () => {
    const forge = {
      label: 'jig',
      priority_labels: { P0: 0, p1: 1, P3: 3 },
      epic_label: 'epic',
      default_priority: 2,
    };
    expect(forgePriority(['jig', 'P3', 'P1'], forge)).toBe(1);
    expect(forgePriority(['jig'], forge)).toBe(2);
    expect(forgePriority(['jig'], { ...forge, default_priority: null })).toBeNull();
    expect([0, 1, 2, 3, 4].map((p) => linearPriority(p, 2))).toEqual([2, 0, 1, 2, 3]);
    expect(linearPriority(0, null)).toBeNull();
    const jira = { priorities: { Urgent: 0 }, default_priority: 2 };
    expect(
      ['Highest', 'high', 'Medium', 'Minor', 'Trivial', 'urgent', 'Odd'].map((n) => jiraPriority(n, jira)),
    ).toEqual([0, 1, 2, 3, 4, 0, 2]);
    expect(jiraPriority(null, { priorities: {}, default_priority: null })).toBeNull();
  });

  it('reads Atlassian Document Format as text', () => {
    expect(
      adfText({
        type: 'doc',
        content: [
          {
            type: 'paragraph',
            content: [{ type: 'text', text: 'One' }, { type: 'hardBreak' }, { type: 'text', text: 'two' }],
          },
          {
            type: 'bulletList',
            content: [
              {
                type: 'listItem',
                content: [{ type: 'paragraph', content: [{ type: 'text', text: 'item' }] }],
              },
            ],
          },
        ],
      }).trim(),
    ).toBe('One\ntwo\n\nitem');
  });
});
