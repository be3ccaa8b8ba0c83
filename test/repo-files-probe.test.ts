import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git, makeRepo } from './helpers/git.js';
import { cleanupAll, http, startJig, tempHome, type JigProcess } from './helpers/server.js';

// Finding 1 of issue 14: a FIFO named Makefile blocked the whole server, a committed
// `Makefile -> /dev/zero` filled its memory. The probe now refuses such a repository at once.

let jig: JigProcess;

beforeAll(async () => {
  jig = await startJig();
});
afterAll(cleanupAll);

/** A request that gives up instead of hanging the suite when the server is stuck. */
async function send(method: string, path: string, body?: unknown) {
  const res = await fetch(`${jig.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text) as unknown };
}

/** Asks, then checks the server still answers; logs how long both took (not asserted: noisy box). */
async function expectRefused(route: string, repo: string, body: unknown) {
  const started = performance.now();
  const r = await send('POST', route, { path: repo });
  const answered = performance.now() - started;
  expect(r.status).toBe(422);
  expect(r.json).toEqual(body);
  const health = await send('GET', '/api/health');
  expect(health.status).toBe(200);
  console.log(
    `${route} ${JSON.stringify((body as { file: string }).file)}: answered in ${answered.toFixed(0)} ms, health after ${(performance.now() - started).toFixed(0)} ms`,
  );
}

const unsafe = (repo: string, file: string, reason: string) => ({
  detail: `${file} in ${repo} ${reason}; Jig reads only regular files inside the repository`,
  code: 'repo_file_unsafe',
  file,
});

describe('a repository whose files would hang or exhaust the probe', () => {
  it('a committed Makefile -> /dev/zero: probe and connect answer 422, the server still answers', async () => {
    const repo = makeRepo();
    symlinkSync('/dev/zero', join(repo, 'Makefile'));
    git(repo, 'add', 'Makefile');
    git(repo, 'commit', '-q', '-m', 'zero');
    const body = unsafe(repo, 'Makefile', 'leads outside the repository (to /dev/zero)');
    await expectRefused('/api/repos/probe', repo, body);
    await expectRefused('/api/repos', repo, body);
    const list = (await send('GET', '/api/repos')).json as { repos: { path: string }[] };
    expect(list.repos.map((x) => x.path)).not.toContain(repo);
  });

  it('a FIFO named Makefile: probe and connect answer 422 without blocking', async () => {
    const repo = makeRepo();
    expect(spawnSync('mkfifo', [join(repo, 'Makefile')]).status).toBe(0);
    const body = unsafe(repo, 'Makefile', 'is a FIFO, not a regular file');
    await expectRefused('/api/repos/probe', repo, body);
    await expectRefused('/api/repos', repo, body);
  });

  it('a package.json or a CI file that leads out of the repository, and a workflows folder that does', async () => {
    const outside = tempHome('jig-outside-');
    writeFileSync(join(outside, 'package.json'), '{"scripts":{"test":"steal"}}');
    const pkg = makeRepo();
    symlinkSync(join(outside, 'package.json'), join(pkg, 'package.json'));
    await expectRefused(
      '/api/repos/probe',
      pkg,
      unsafe(pkg, 'package.json', `leads outside the repository (to ${join(outside, 'package.json')})`),
    );

    const ci = makeRepo({ 'package.json': '{"scripts":{"test":"vitest"}}' });
    mkdirSync(join(ci, '.github', 'workflows'), { recursive: true });
    symlinkSync('/dev/zero', join(ci, '.github', 'workflows', 'ci.yml'));
    await expectRefused(
      '/api/repos/probe',
      ci,
      unsafe(ci, '.github/workflows/ci.yml', 'leads outside the repository (to /dev/zero)'),
    );

    const wf = makeRepo({ 'package.json': '{"scripts":{"test":"vitest"}}' });
    mkdirSync(join(outside, 'workflows'));
    writeFileSync(join(outside, 'workflows', 'ci.yml'), 'run: npm test\n');
    mkdirSync(join(wf, '.github'));
    symlinkSync(join(outside, 'workflows'), join(wf, '.github', 'workflows'));
    await expectRefused(
      '/api/repos/probe',
      wf,
      unsafe(wf, '.github/workflows', `leads outside the repository (to ${join(outside, 'workflows')})`),
    );
  });

  it('a link that stays inside the repository still proposes, with its reason', async () => {
    const repo = makeRepo({
      'build/Makefile': 'test:\n\tgo test ./...\n',
      'ci/main.yml': 'jobs:\n  t:\n    steps:\n      - run: make test\n',
    });
    symlinkSync('build/Makefile', join(repo, 'Makefile'));
    mkdirSync(join(repo, '.github'));
    symlinkSync('../ci', join(repo, '.github', 'workflows'));
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'links');
    const r = await send('POST', '/api/repos/probe', { path: repo });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      test_command: {
        value: 'make test',
        reason: 'Makefile has a `test` target; .github/workflows/main.yml runs it too',
      },
    });
    const connected = await http(`${jig.url}/api/repos`, { method: 'POST', body: { path: repo } });
    expect(connected.status).toBe(201);
    expect(connected.json.test_command).toBe('make test');
  });
});
