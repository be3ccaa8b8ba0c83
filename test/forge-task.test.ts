import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git, gitEnv, makeRepo } from './helpers/git.js';
import { startMockGitHub, type MockGitHub } from './helpers/mock-github.js';

/*
 * The forge task process (dist/runtime/builtins/forge-task.js) against a local bare origin and a
 * recording mock of GitHub: it pushes the item's branch, opens the draft from the mr_meta
 * document, syncs it after a new commit, marks it ready; a push someone else made meanwhile is
 * not overwritten; a refused token fails without ever printing it.
 */
const SCRIPT = resolve(import.meta.dirname, '..', 'dist', 'runtime', 'builtins', 'forge-task.js');
const TOKEN = 'ghp_task_secret';
let gh: MockGitHub;
let origin: string;
let repo: string;
let dir: string;

function run(
  target: string,
  env: Record<string, string> = {},
): Promise<{ code: number | null; out: string; result: any }> {
  const result = join(dir, `result-${Math.random().toString(36).slice(2)}.json`);
  return new Promise((res) => {
    const p = spawn(process.execPath, [SCRIPT, target], {
      cwd: repo,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        ...gitEnv,
        JIG_RESULT_PATH: result,
        JIG_FORGE: JSON.stringify({ forge: 'github', project: 'acme/app', api_url: gh.url }),
        JIG_FORGE_TOKEN: TOKEN,
        JIG_FORGE_TIMEOUT_S: '5',
        JIG_MR_HEAD: 'jig/abc-fix',
        JIG_MR_BASE: 'main',
        JIG_MR_META: join(dir, 'mr_meta.md'),
        JIG_MR_TITLE: 'Fix the thing',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (out += d.toString()));
    p.on('exit', (code) =>
      res({ code, out, result: existsSync(result) ? JSON.parse(readFileSync(result, 'utf8')) : null }),
    );
  });
}

beforeAll(async () => {
  gh = await startMockGitHub(TOKEN);
  dir = mkdtempSync(join(tmpdir(), 'jig-forge-task-'));
  origin = join(dir, 'origin.git');
  repo = makeRepo();
  git(dir, 'init', '-q', '--bare', origin);
  git(repo, 'remote', 'add', 'origin', origin);
  git(repo, 'push', '-q', 'origin', 'main');
  git(repo, 'checkout', '-q', '-b', 'jig/abc-fix');
  writeFileSync(join(repo, 'fix.txt'), 'fixed\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'fix');
});
afterAll(() => gh.close());

describe('the forge task process', () => {
  it('open_draft pushes the branch and opens a draft titled by the mr_meta document', async () => {
    writeFileSync(join(dir, 'mr_meta.md'), '# fix: the thing\n\nWhy it was broken.\n');
    const r = await run('mr.open_draft');
    expect(r.code, r.out).toBe(0);
    const head = git(repo, 'rev-parse', 'HEAD');
    expect(git(origin, 'rev-parse', 'refs/heads/jig/abc-fix')).toBe(head);
    expect(r.result).toEqual({
      status: 'done',
      summary: `pushed ${head.slice(0, 12)} to jig/abc-fix; opened draft https://github.example/acme/app/pull/1`,
      merge_request: {
        number: 1,
        url: 'https://github.example/acme/app/pull/1',
        state: 'open',
        draft: true,
        head: 'jig/abc-fix',
        base: 'main',
        sha: 'sha-jig/abc-fix',
        merge_sha: null,
        title: 'fix: the thing',
        labels: [],
      },
    });
    expect(gh.pulls[0]).toMatchObject({ title: 'fix: the thing', body: 'Why it was broken.', draft: true });
  });

  it('sync pushes a rewritten branch and refreshes the description; open_draft again opens nothing new', async () => {
    git(repo, 'commit', '-q', '--amend', '-m', 'fix, amended');
    writeFileSync(join(dir, 'mr_meta.md'), '# fix: the thing, better\n\nNow with tests.\n');
    const r = await run('mr.sync', { JIG_MR_NUMBER: '1' });
    expect(r.code, r.out).toBe(0);
    expect(git(origin, 'rev-parse', 'refs/heads/jig/abc-fix')).toBe(git(repo, 'rev-parse', 'HEAD'));
    expect(gh.pulls[0]).toMatchObject({ title: 'fix: the thing, better', body: 'Now with tests.' });
    const again = await run('mr.open_draft');
    expect(again.result.merge_request.number).toBe(1);
    expect(gh.pulls).toHaveLength(1);
  });

  it('mark_ready takes it out of draft', async () => {
    const r = await run('mr.mark_ready', { JIG_MR_NUMBER: '1' });
    expect(r.code, r.out).toBe(0);
    expect(r.result).toMatchObject({ status: 'done', merge_request: { draft: false } });
  });

  it('does not overwrite a push someone else made to the branch', async () => {
    const other = join(dir, 'other');
    git(dir, 'clone', '-q', '-b', 'jig/abc-fix', origin, other);
    writeFileSync(join(other, 'theirs.txt'), 'theirs\n');
    git(other, 'add', '-A');
    git(other, 'commit', '-q', '-m', 'theirs');
    git(other, 'push', '-q', 'origin', 'jig/abc-fix');
    const theirs = git(other, 'rev-parse', 'HEAD');
    git(repo, 'commit', '-q', '--amend', '-m', 'fix, amended again');
    const r = await run('mr.sync', { JIG_MR_NUMBER: '1' });
    expect(r.code).toBe(1);
    expect(r.result.status).toBe('failed');
    expect(r.result.summary).toMatch(/^push of jig\/abc-fix to origin failed: .*stale info/);
    expect(git(origin, 'rev-parse', 'refs/heads/jig/abc-fix')).toBe(theirs);
  });

  it('a refused token fails as an auth error and is never printed', async () => {
    const r = await run('mr.mark_ready', { JIG_MR_NUMBER: '1', JIG_FORGE_TOKEN: 'ghp_wrong_one' });
    expect(r.code).toBe(1);
    expect(r.result).toEqual({
      status: 'failed',
      summary: 'github acme/app: read pull request #1: the token was refused (401)',
      forge_error: { kind: 'auth', status: 401 },
    });
    expect(r.out).not.toContain('ghp_wrong_one');
    expect(JSON.stringify(r.result)).not.toContain('ghp_wrong_one');
  });

  it('sync without a merge request, and an unknown target, fail saying so', async () => {
    const none = await run('mr.sync', { JIG_MR_HEAD: 'jig/other' });
    expect(none.result).toMatchObject({
      status: 'failed',
      summary:
        'mr.sync: the item has no open merge request from jig/other; open one with mr.open_draft first',
    });
    const unknown = await run('mr.merge');
    expect(unknown.result.summary).toBe('forge task: mr.merge is not an action this script takes');
  });
});
