import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harnessesYaml } from './helpers/agents.js';
import { events, fileItem, post, until } from './helpers/engine.js';
import { eventually } from './helpers/eventually.js';
import { git, gitEnv, makeRepo } from './helpers/git.js';
import { startMockGitHub, type MockGitHub } from './helpers/mock-github.js';
import { cleanupAll, http, runJig, startJig, tempHome, type JigProcess } from './helpers/server.js';

/*
 * External waits on the real server against a recording GitHub mock and a local bare origin: the
 * item waits on CI holding no slot, a failing check's name and log reach the repair as findings,
 * the repaired commit passes, the merge waits until the forge merges, post-merge CI runs on the
 * merge commit. A pull request closed on the forge stops the item and reopen-mr continues it; a
 * restart during a wait polls on; a refused token during a wait is an infra stop.
 */
const TOKEN = 'ghp_waits_secret_value';
const POLL = 'wait: {polling: {initial_interval: 1s, max_interval: 2s}}';

const chain = (briefs: string): string => `
nodes:
  - id: change
    kind: exec
    tasks:
      - id: edit
        kind: subprocess
        run: "printf 'x\\\\n' > x.txt && git add x.txt && git commit -q -m 'add x'"
  - id: describe
    kind: exec
    tasks:
      - id: author
        kind: agent
        harness: claude
        produces: mr_meta
        prompt: Describe the merge request.
  - id: open
    kind: exec
    tasks:
      - id: open
        kind: forge
        target: mr.open_draft
  - id: feedback
    kind: exec
    steps:
      - id: ci
        tasks:
          - id: await
            kind: forge
            target: mr.ci
            ${POLL}
    fix_loop:
      steps:
        - id: repair
          tasks:
            - id: repair
              kind: subprocess
              run: "cp \\"$JIG_FIX_BRIEF\\" ${briefs}/ && printf 'fixed\\\\n' >> x.txt && git commit -q -am 'fix ci'"
        - id: sync
          tasks:
            - id: sync
              kind: forge
              target: mr.sync
      max_attempts: 2
  - id: final
    kind: gate
    artifact: mr_meta
    chain_finalized: true
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
  - id: post
    kind: exec
    tasks:
      - id: await
        kind: forge
        target: mr.post_merge_ci
        ${POLL}
`;

let gh: MockGitHub;
let repo: string;
let origin: string;
let briefs: string;
const procs: JigProcess[] = [];

/** The sha origin has for a branch: what CI runs on, as on a real forge. */
const tip = (branch: string): string => git(origin, 'rev-parse', `refs/heads/${branch}`);

const run = (name: string, status: string, conclusion: string | null, text = '') => ({
  name,
  status,
  conclusion,
  details_url: `https://ci.example/${name}`,
  html_url: null,
  output: { title: name, summary: `${name} ${conclusion ?? status}`, text },
});

async function serve(home?: string, token = TOKEN): Promise<JigProcess> {
  const h = home ?? tempHome();
  if (!home) {
    mkdirSync(join(h, 'config', 'chains'), { recursive: true });
    writeFileSync(join(h, 'config', 'chains', 'waity.yaml'), chain(briefs));
    writeFileSync(
      join(h, 'config', 'repos.yaml'),
      `repos:\n  - path: ${repo}\n    test_command: ''\n    setup_command: ''\n    forge: github\n    project: acme/app\n    forge_url: ${gh.url}\n    merge_method: squash\n    env:\n      FAKE_AGENT_MODE: done\n      FAKE_AGENT_ARTIFACT: "# add x\\n\\nBecause it was missing.\\n"\n`,
    );
    writeFileSync(join(h, 'config', 'harnesses.yaml'), harnessesYaml());
  }
  const jig = await startJig({ home: h, env: { ...gitEnv, JIG_FORGE_TOKEN: token } });
  procs.push(jig);
  return jig;
}

const types = (evs: any[], prefix: string) => evs.filter((e) => e.type.startsWith(prefix));

const sawEvent = (jig: JigProcess, id: string, type: string, pred: (e: any) => boolean) => async () =>
  (await events(jig, id)).some((e) => e.type === type && pred(e));

beforeAll(async () => {
  gh = await startMockGitHub(TOKEN);
  gh.shaOf = tip;
  repo = makeRepo();
  origin = join(tempHome('jig-origin-'), 'origin.git');
  briefs = tempHome('jig-briefs-');
  git(repo, 'init', '-q', '--bare', origin);
  git(repo, 'remote', 'add', 'origin', origin);
  git(repo, 'push', '-q', 'origin', 'main');
});
afterAll(async () => {
  for (const p of procs) if (p.proc.exitCode === null) await p.stop();
  await gh.close();
  await cleanupAll();
});

describe('external waits', () => {
  it('CI pending, failing, repaired, passing; the gate; the merge; post-merge CI on the merge commit', async () => {
    const jig = await serve();
    const item = await fileItem(jig, repo, 'waity');
    const waiting = await until(jig, item.id, (i) => i.status === 'waiting' || i.status === 'stopped');
    expect(waiting.status, JSON.stringify(waiting.stop)).toBe('waiting');
    expect(waiting.display_status).toBe('waiting');
    const first = tip(waiting.branch);
    gh.checkRuns[first] = [run('unit', 'in_progress', null)];
    await eventually(
      sawEvent(jig, item.id, 'external_wait_observed', (e) => e.payload.state === 'pending'),
      { what: 'CI seen pending' },
    );
    const log = Array.from({ length: 60 }, (_, i) => `line ${i + 1}`).join('\n');
    gh.checkRuns[first] = [run('unit', 'completed', 'failure', `${log}\nFAILED test_x`)];
    // The repair commits and sync pushes a new tip: its CI passes.
    await eventually(() => tip(waiting.branch) !== first, { what: 'the repair pushed' });
    gh.checkRuns[tip(waiting.branch)] = [run('unit', 'completed', 'success')];
    const atGate = await until(jig, item.id, (i) => i.status === 'stopped');
    expect(atGate.stop, JSON.stringify(atGate.stop)).toMatchObject({ kind: 'gate' });

    const [brief] = readdirSync(briefs).map((f) => readFileSync(join(briefs, f), 'utf8'));
    expect(brief).toContain('CI check "unit" failed: unit failure');
    expect(brief).toContain('FAILED test_x');
    expect(brief).toContain('line 22');
    expect(brief).not.toContain('line 21\n');

    const evs = await events(jig, item.id);
    const ended = types(evs, 'external_wait_ended').map((e) => [e.payload.outcome, e.payload.findings]);
    expect(ended).toEqual([
      ['failed', 1],
      ['passed', 0],
    ]);
    expect(types(evs, 'external_wait_started')[0].payload).toMatchObject({
      task: 'feedback.ci.await',
      target: 'mr.ci',
      repo,
      number: 1,
      interval_s: 1,
      max_interval_s: 2,
    });

    const approved = await post(jig, `/api/work-items/${item.id}/gates/final/approve`, {});
    expect(approved.status, approved.text).toBe(200);
    // Not mergeable yet: the merge waits and tries again.
    gh.mergeRefusal = 'Required status check "unit" is expected.';
    await eventually(
      sawEvent(jig, item.id, 'external_wait_observed', (e) =>
        String(e.payload.detail).includes('not mergeable yet'),
      ),
      { what: 'the merge seen not mergeable yet' },
    );
    gh.mergeRefusal = null;
    await eventually(() => gh.pulls[0]?.merged === true, { what: 'the pull request merged' });
    const mergeSha = gh.pulls[0]!.merge_commit_sha!;
    gh.statuses[mergeSha] = [{ context: 'deploy', state: 'success', target_url: null, description: 'ok' }];
    const done = await until(jig, item.id, (i) => i.status === 'completed' || i.status === 'stopped');
    expect(done.status, JSON.stringify(done.stop)).toBe('completed');
    expect(gh.pulls[0]?.merge_method).toBe('squash');

    const all = await events(jig, item.id);
    expect(types(all, 'mr_merged').map((e) => e.payload)).toEqual([
      { repo, number: 1, url: 'https://github.example/acme/app/pull/1', merge_sha: mergeSha },
    ]);
    const mrs = await http(`${jig.url}/api/work-items/${item.id}/merge-requests`);
    expect(mrs.json.merge_requests[0]).toMatchObject({ state: 'merged', merge_sha: mergeSha });
    // The item's own answer carries it too.
    const answer = (await http(`${jig.url}/api/work-items/${item.id}`)).json;
    expect(answer.merge_requests).toEqual(mrs.json.merge_requests);
    expect(JSON.stringify(all)).not.toContain(TOKEN);
    expect(jig.stdout() + jig.stderr()).not.toContain(TOKEN);
    await jig.stop();
  });

  it('a pull request closed on the forge stops the item; reopen-mr reopens it and the item goes on', async () => {
    const jig = await serve();
    const item = await fileItem(jig, repo, 'waity');
    const waiting = await until(jig, item.id, (i) => i.status === 'waiting' || i.status === 'stopped');
    expect(waiting.status).toBe('waiting');
    const pull = gh.pulls.find((p) => p.head.ref === waiting.branch)!;
    pull.state = 'closed';
    const stopped = await until(jig, item.id, (i) => i.status === 'stopped');
    expect(stopped.stop).toEqual({
      kind: 'mr_closed',
      reason: `${pull.html_url} was closed without being merged; reopen it (jig item reopen-mr ${item.id}) and the item goes on, or cancel the item`,
      suggested_action: null,
    });
    const worker = await http(`${jig.url}/api/work-items/${item.id}/reopen-mr`, {
      method: 'POST',
      headers: { 'x-jig-work-item': item.id },
    });
    expect(worker.status).toBe(403);
    expect(worker.json.code).toBe('worker_own_item');
    const reopened = await post(jig, `/api/work-items/${item.id}/reopen-mr`);
    expect(reopened.status, reopened.text).toBe(200);
    expect(reopened.json.merge_request).toMatchObject({ number: pull.number, state: 'open' });
    expect(['running', 'queued', 'waiting']).toContain(reopened.json.item.status);
    expect(pull.state).toBe('open');
    const again = await post(jig, `/api/work-items/${item.id}/reopen-mr`);
    expect(again.status).toBe(409);
    expect(again.json.code).toBe('mr_not_closed');
    const cli = await runJig(['item', 'reopen-mr', item.id], { JIG_HOME: jig.home, JIG_URL: jig.url });
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain(
      `work item ${item.id} is not stopped on a merge request closed without merging`,
    );
    gh.checkRuns[tip(waiting.branch)] = [run('unit', 'completed', 'success')];
    const atGate = await until(jig, item.id, (i) => i.status === 'stopped');
    expect(atGate.stop.kind).toBe('gate');
    const evs = await events(jig, item.id);
    expect(
      evs.filter((e) => ['mr_closed', 'mr_reopened'].includes(e.type)).map((e) => [e.type, e.by]),
    ).toEqual([
      ['mr_closed', 'jig'],
      ['mr_reopened', 'human'],
    ]);
    await post(jig, `/api/work-items/${item.id}/cancel`, {});
    await jig.stop();
  });

  it('a restart during a wait polls on from where it was; a pause ends the wait and resume waits anew', async () => {
    let jig = await serve();
    const item = await fileItem(jig, repo, 'waity');
    const waiting = await until(jig, item.id, (i) => i.status === 'waiting' || i.status === 'stopped');
    expect(waiting.status).toBe('waiting');
    const paused = await post(jig, `/api/work-items/${item.id}/pause`);
    expect(paused.status, paused.text).toBe(200);
    expect(paused.json.status).toBe('paused');
    const resumed = await post(jig, `/api/work-items/${item.id}/resume`, {});
    expect(resumed.status, resumed.text).toBe(200);
    await until(jig, item.id, (i) => i.status === 'waiting');
    const home = jig.home;
    await jig.stop('SIGKILL');
    gh.checkRuns[tip(waiting.branch)] = [run('unit', 'completed', 'success')];
    jig = await serve(home);
    const atGate = await until(jig, item.id, (i) => i.status === 'stopped');
    expect(atGate.stop.kind).toBe('gate');
    const ended = types(await events(jig, item.id), 'external_wait_ended').map((e) => e.payload.outcome);
    expect(ended).toEqual(['paused', 'passed']);
    const sessions = (await http(`${jig.url}/api/work-items/${item.id}/sessions`)).json.sessions;
    expect(
      sessions.filter((s: any) => s.task_path === 'feedback.ci.await').map((s: any) => s.status),
    ).toEqual(['paused', 'done']);
    await post(jig, `/api/work-items/${item.id}/cancel`, {});
    await jig.stop();
  });

  it('a cancel during a wait ends its session as cancelled, not paused (issue 28)', async () => {
    const jig = await serve();
    const item = await fileItem(jig, repo, 'waity');
    const waiting = await until(jig, item.id, (i) => i.status === 'waiting' || i.status === 'stopped');
    expect(waiting.status).toBe('waiting');
    const cancelled = await post(jig, `/api/work-items/${item.id}/cancel`, {});
    expect(cancelled.json.status).toBe('cancelled');
    const ended = await eventually(
      async () => {
        const found = types(await events(jig, item.id), 'external_wait_ended');
        return found.length > 0 && found;
      },
      { what: 'the wait to end' },
    );
    expect(ended.map((e) => [e.payload.outcome, e.payload.detail])).toEqual([
      ['cancelled', 'the item is cancelled'],
    ]);
    const sessions = (await http(`${jig.url}/api/work-items/${item.id}/sessions`)).json.sessions;
    expect(
      sessions.filter((s: any) => s.task_path === 'feedback.ci.await').map((s: any) => s.status),
    ).toEqual(['cancelled']);
    await jig.stop();
  });

  it('a token refused during a wait is an infra stop that names where the token came from', async () => {
    const jig = await serve();
    const item = await fileItem(jig, repo, 'waity');
    const waiting = await until(jig, item.id, (i) => i.status === 'waiting' || i.status === 'stopped');
    expect(waiting.status).toBe('waiting');
    gh.failWith = 401;
    try {
      const stopped = await until(jig, item.id, (i) => i.status === 'stopped');
      expect(stopped.stop.kind).toBe('infra');
      expect(stopped.stop.reason).toMatch(
        /^feedback\.ci\.await: github acme\/app: read pull request #\d+: the token was refused \(401\) \(the token came from JIG_FORGE_TOKEN\)$/,
      );
    } finally {
      gh.failWith = null;
    }
    expect(jig.stdout() + jig.stderr()).not.toContain(TOKEN);
    await post(jig, `/api/work-items/${item.id}/cancel`, {});
    await jig.stop();
  });
});
