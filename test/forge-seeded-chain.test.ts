import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { harnessesYaml } from './helpers/agents.js';
import { events, fileItem, post, until } from './helpers/engine.js';
import { git, gitEnv, makeRepo } from './helpers/git.js';
import { startMockGitea } from './helpers/mock-gitea.js';
import { mergeShaOf } from './helpers/mock-http.js';
import { startMockGitHub } from './helpers/mock-github.js';
import { startMockGitLab } from './helpers/mock-gitlab.js';
import { cleanupAll, http, repoRoot, startJig, tempHome, type JigProcess } from './helpers/server.js';

/*
 * The seeded `merge-request` chain, as shipped (only its waits poll every second instead of every
 * 30 s), with the fake Claude Code for every agent, a local bare origin and a recording mock of each
 * forge: four gates approved, a draft opened, CI passing on the pushed commit, no automated review
 * configured, the required approval given, the merge, post-merge CI on the merge commit, completed.
 */
const TOKEN = 'forge_seeded_secret';

function script(dir: string): string {
  const p = join(dir, 'script.json');
  const doc = (match: string, artifact: string) => ({ match, mode: 'done', artifact });
  writeFileSync(
    p,
    JSON.stringify({
      rules: [
        doc('Write a specification', '# Spec\n\nAdd a greeting.\n'),
        doc('Turn the approved spec', '# Plan\n\n1. Edit.\n'),
        { match: 'Implement the approved plan', mode: 'fix' },
        { match: 'Review the change in the review package', mode: 'done', findings: [] },
        doc('Write a work brief', '# Brief\n\nOne change.\n'),
        doc("Write the merge request's title", '# Add a greeting\n\nSays hello.\n'),
        doc('Write the review brief', '# Review brief\n\nCI passed.\n'),
      ],
      default: { mode: 'fail' },
    }),
  );
  return p;
}

/**
 * The shipped library with its waits polling every second (the chain itself is untouched): the
 * merge, which ships without a polling block (the default first check is at 30 s), gets one too.
 */
function fastLibrary(): string {
  const shipped = readFileSync(join(repoRoot, 'defaults', 'config', 'library.yaml'), 'utf8');
  const merge = '    target: mr.merge\n    scope: each_repository\n';
  if (!shipped.includes(merge))
    throw new Error('the shipped library no longer has its merge task as this test knows it');
  return shipped
    .replace(
      merge,
      `${merge}    wait:\n      polling:\n        initial_interval: 1s\n        max_interval: 2s\n`,
    )
    .replace(/initial_interval: \d+[smh]/g, 'initial_interval: 1s')
    .replace(/max_interval: \d+[smh]/g, 'max_interval: 2s');
}

interface Forge {
  kind: 'github' | 'gitlab' | 'gitea';
  project: string;
  url: string;
  /** Makes CI pass on a commit. */
  pass(sha: string): void;
  merged(): boolean;
  close(): Promise<void>;
}

/** Starts a forge mock whose merge requests follow the branch tips of `origin`. */
type MakeForge = (tip: (branch: string) => string) => Promise<Forge>;

async function run(make: MakeForge): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'jig-mr-chain-'));
  const repo = makeRepo();
  const origin = join(tempHome('jig-origin-'), 'origin.git');
  git(repo, 'init', '-q', '--bare', origin);
  git(repo, 'remote', 'add', 'origin', origin);
  git(repo, 'push', '-q', 'origin', 'main');
  const forge = await make((branch) => git(origin, 'rev-parse', `refs/heads/${branch}`));
  // The merge commit the mock will make: its CI passes once it exists.
  forge.pass(mergeShaOf(1));
  const home = tempHome();
  mkdirSync(join(home, 'config'), { recursive: true });
  writeFileSync(join(home, 'config', 'library.yaml'), fastLibrary());
  writeFileSync(join(home, 'config', 'harnesses.yaml'), harnessesYaml());
  writeFileSync(
    join(home, 'config', 'repos.yaml'),
    `repos:\n  - path: ${repo}\n    test_command: 'test -f fake-agent-change.txt'\n    setup_command: ''\n    forge: ${forge.kind}\n    project: ${forge.project}\n    forge_url: ${forge.url}\n    env:\n      FAKE_AGENT_SCRIPT: ${script(dir)}\n`,
  );
  const jig: JigProcess = await startJig({ home, env: { ...gitEnv, JIG_FORGE_TOKEN: TOKEN } });
  try {
    const item = await fileItem(jig, repo, 'merge-request');
    const stoppedAt = async (gate: string) => {
      const at = await until(jig, item.id, (i) => i.status === 'stopped' || i.status === 'completed');
      expect([at.stop?.kind, at.current_node], JSON.stringify(at.stop)).toEqual(['gate', gate]);
      const ok = await post(jig, `/api/work-items/${item.id}/gates/${gate}/approve`, {});
      expect(ok.status, ok.text).toBe(200);
    };
    await stoppedAt('spec_approval');
    await stoppedAt('plan_approval');
    await stoppedAt('local_review');
    const waiting = await until(jig, item.id, (i) => i.status === 'waiting' || i.status === 'stopped');
    expect([waiting.status, waiting.current_node], JSON.stringify(waiting.stop)).toEqual([
      'waiting',
      'merge_request_feedback',
    ]);
    forge.pass(git(origin, 'rev-parse', `refs/heads/${waiting.branch}`));
    await stoppedAt('final_review');
    const merging = await until(jig, item.id, (i) => i.status !== 'running' && i.status !== 'queued');
    expect(merging.status, JSON.stringify(merging.stop)).toBe('waiting');
    const done = await until(jig, item.id, (i) => i.status === 'completed' || i.status === 'stopped', 600);
    expect(done.status, JSON.stringify(done.stop)).toBe('completed');
    const evs = await events(jig, item.id);
    const waits = evs
      .filter((e) => e.type === 'external_wait_ended')
      .map((e) => [e.payload.target, e.payload.outcome]);
    expect(waits).toEqual([
      ['mr.ci', 'passed'],
      ['mr.automated_review', 'passed'],
      ['mr.external_approval', 'passed'],
      ['mr.merge', 'passed'],
      ['mr.post_merge_ci', 'passed'],
    ]);
    expect(evs.filter((e) => e.type === 'automated_review_not_configured')).toHaveLength(1);
    expect(evs.filter((e) => e.type === 'gate_approved')).toHaveLength(4);
    const final = (await http(`${jig.url}/api/work-items/${item.id}/merge-requests`)).json.merge_requests;
    expect(final[0]).toMatchObject({
      state: 'merged',
      draft: false,
      title: 'Add a greeting',
      merge_sha: mergeShaOf(1),
    });
    expect(forge.merged()).toBe(true);
    expect(JSON.stringify(evs)).not.toContain(TOKEN);
    expect(jig.stdout() + jig.stderr()).not.toContain(TOKEN);
  } finally {
    await jig.stop();
    await forge.close();
  }
}

afterAll(cleanupAll);

describe('the seeded merge-request chain runs to a merged merge request', () => {
  it('on GitHub', async () => {
    await run(async (tip) => {
      const gh = await startMockGitHub(TOKEN);
      gh.shaOf = tip;
      return {
        kind: 'github',
        project: 'acme/app',
        url: gh.url,
        pass: (sha) => {
          gh.checkRuns[sha] = [
            { name: 'ci', status: 'completed', conclusion: 'success', details_url: null, html_url: null },
          ];
        },
        merged: () => gh.pulls[0]?.merged === true,
        close: () => gh.close(),
      };
    });
  });

  it('on GitLab', async () => {
    let n = 0;
    await run(async (tip) => {
      const gl = await startMockGitLab(TOKEN);
      gl.shaOf = tip;
      return {
        kind: 'gitlab',
        project: 'group/app',
        url: `${gl.url}/api/v4`,
        pass: (sha) => {
          n += 1;
          gl.pipelines.push({
            id: n,
            sha,
            jobs: [{ id: n, name: 'ci', status: 'success', allow_failure: false, web_url: null }],
          });
        },
        merged: () => gl.mrs[0]?.state === 'merged',
        close: () => gl.close(),
      };
    });
  });

  it('on Gitea', async () => {
    await run(async (tip) => {
      const gt = await startMockGitea(TOKEN);
      gt.shaOf = tip;
      return {
        kind: 'gitea',
        project: 'acme/app',
        url: `${gt.url}/api/v1`,
        pass: (sha) => {
          gt.statuses[sha] = [{ id: 1, context: 'ci', status: 'success', target_url: '', description: 'ok' }];
        },
        merged: () => gt.pulls[0]?.merged === true,
        close: () => gt.close(),
      };
    });
  });
});
