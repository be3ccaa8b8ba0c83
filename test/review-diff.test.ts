import { execFileSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './helpers/mcp.js';
import { engineSetup, fileItem, post, until } from './helpers/engine.js';
import { cleanupAll, http, runJig, type JigProcess } from './helpers/server.js';

/*
 * Diff, compare and viewed marks on a real repository: the `build` node commits a line, a binary
 * file, and leaves two files changed but uncommitted (one only in whitespace); a rejection runs it
 * again, which adds a second line, so two attempts of `build` differ by exactly that line.
 */
const CHAIN = `
nodes:
  - id: build
    kind: exec
    tasks:
      - id: work
        kind: subprocess
        run: >-
          echo built >> out.txt && git add out.txt && git commit -qm built &&
          printf 'PNG\\000\\001\\002' > bin.dat && git add bin.dat && (git diff --cached --quiet || git commit -qm bin) &&
          echo changed > README.md && printf 'a  b\\n' > ws.txt
  - id: review
    kind: gate
    message: Look at it
    reject_to: build
  - id: finish
    kind: exec
    tasks:
      - id: last
        kind: subprocess
        run: echo finished
`;

let jig: JigProcess;
let repo: string;
let home: string;
let id: string;
const get = async (path: string) => http(`${jig.url}/api/work-items/${id}${path}`);
const put = (path: string) =>
  http(`${jig.url}/api/work-items/${id}/viewed`, { method: 'PUT', body: { path } });
const del = (path: string) =>
  http(`${jig.url}/api/work-items/${id}/viewed`, { method: 'DELETE', body: { path } });

beforeAll(async () => {
  ({ jig, repo, home } = await engineSetup(
    { reviewed: CHAIN },
    { repoFiles: { 'README.md': '# start\n', 'ws.txt': 'a b\n' } },
  ));
  id = (await fileItem(jig, repo, 'reviewed')).id;
  await until(jig, id, (i) => i.status === 'stopped' && i.current_node === 'review');
});
afterAll(cleanupAll);

describe('the diff of an item', () => {
  it('lists every change against the base, uncommitted and binary files included, with a patch each', async () => {
    const d = await get('/diff');
    expect(d.status, d.text).toBe(200);
    const base = execFileSync('git', ['rev-parse', 'main'], { cwd: repo, encoding: 'utf8' }).trim();
    expect(d.json.from).toEqual({ target: 'base', sha: base });
    expect(d.json.to.target).toBe('latest');
    expect(d.json.totals).toEqual({ files: 4, additions: 3, deletions: 2 });
    const files = d.json.files.map((f: any) => [f.path, f.status, f.additions, f.deletions, f.binary]);
    expect(files).toEqual([
      ['README.md', 'modified', 1, 1, false],
      ['bin.dat', 'added', null, null, true],
      ['out.txt', 'added', 1, 0, false],
      ['ws.txt', 'modified', 1, 1, false],
    ]);
    const byPath = Object.fromEntries(d.json.files.map((f: any) => [f.path, f]));
    expect(byPath['out.txt'].patch).toContain('diff --git a/out.txt b/out.txt');
    expect(byPath['out.txt'].patch).toContain('\n+built\n');
    expect(byPath['README.md'].patch).toContain('-# start\n+changed\n');
    expect(byPath['bin.dat'].patch).toBeNull();
    expect(byPath['bin.dat'].truncated).toBe(false);
    expect(d.json).toMatchObject({
      format: 'patch',
      ignore_whitespace: false,
      nodes: null,
      offset: 0,
      next_offset: null,
    });
    expect(d.json.attempts).toEqual([
      { n: 1, node: 'build', run: 1, sha: expect.stringMatching(/^[0-9a-f]{40}$/), at: expect.any(String) },
    ]);
    // The agent's own index and HEAD are untouched: the uncommitted files stay uncommitted.
    const latestAgain = await get('/diff?format=stat');
    expect(latestAgain.json.to.sha).toBe(d.json.to.sha);
    expect(latestAgain.json.files.every((f: any) => f.patch === null)).toBe(true);
  });

  it('takes stat, name_only, ignore_whitespace and pages of files', async () => {
    const names = await get('/diff?format=name_only');
    expect(names.json.files.map((f: any) => [f.path, f.additions, f.binary])).toEqual([
      ['README.md', null, null],
      ['bin.dat', null, null],
      ['out.txt', null, null],
      ['ws.txt', null, null],
    ]);
    const ws = await get('/diff?ignore_whitespace=1');
    const wsFile = ws.json.files.find((f: any) => f.path === 'ws.txt');
    expect([wsFile.additions, wsFile.deletions]).toEqual([0, 0]);
    expect(ws.json.ignore_whitespace).toBe(true);
    const first = await get('/diff?limit=3');
    expect(first.json.files.map((f: any) => f.path)).toEqual(['README.md', 'bin.dat', 'out.txt']);
    expect(first.json.next_offset).toBe(3);
    const rest = await get('/diff?limit=3&offset=3');
    expect(rest.json.files.map((f: any) => f.path)).toEqual(['ws.txt']);
    expect(rest.json.next_offset).toBeNull();
    const bad = await get('/diff?format=fancy');
    expect(bad.status).toBe(422);
    expect(bad.json.detail).toContain('format');
  });

  it('answers 409 for an item not started, 404 for no item', async () => {
    const paused = await fileItem(jig, repo, 'reviewed', false);
    const r = await http(`${jig.url}/api/work-items/${paused.id}/diff`);
    expect(r.status).toBe(409);
    expect(r.json.code).toBe('item_not_started');
    const none = await http(`${jig.url}/api/work-items/nosuch/diff`);
    expect(none.status).toBe(404);
    expect(none.json.code).toBe('item_not_found');
  });
});

describe('viewed marks and compare across attempts', () => {
  it('marks files viewed; a later change clears the mark; compares attempt 1 with attempt 2', async () => {
    expect((await put('out.txt')).json).toEqual({ path: 'out.txt', viewed: true });
    expect((await put('./README.md')).json).toEqual({ path: 'README.md', viewed: true });
    expect((await put('ws.txt')).json).toEqual({ path: 'ws.txt', viewed: true });
    expect((await del('ws.txt')).json).toEqual({ path: 'ws.txt', viewed: false });
    const marked = await get('/diff?format=stat');
    expect(marked.json.files.filter((f: any) => f.viewed).map((f: any) => f.path)).toEqual([
      'README.md',
      'out.txt',
    ]);

    const rejected = await post(jig, `/api/work-items/${id}/gates/review/reject`, { note: 'again' });
    expect(rejected.status, rejected.text).toBe(200);
    await until(jig, id, (i) => i.status === 'stopped' && i.current_node === 'review');

    const after = await get('/diff?format=stat');
    // out.txt changed after its mark (a second line); README.md did not.
    expect(after.json.files.filter((f: any) => f.viewed).map((f: any) => f.path)).toEqual(['README.md']);
    expect(after.json.attempts.map((a: any) => [a.n, a.node, a.run])).toEqual([
      [1, 'build', 1],
      [2, 'build', 2],
    ]);

    const between = await get('/compare?from=attempt:1&to=attempt:2');
    expect(between.status, between.text).toBe(200);
    expect(between.json.from).toEqual({ target: 'attempt:1', sha: after.json.attempts[0].sha });
    expect(between.json.totals).toEqual({ files: 1, additions: 1, deletions: 0 });
    expect(between.json.files[0]).toMatchObject({ path: 'out.txt', status: 'modified', additions: 1 });
    expect(between.json.files[0].patch).toMatch(/ built\n\+built\n$/);

    const byNode = await get('/compare?from=base&to=latest&nodes=build&format=name_only');
    expect(byNode.json.nodes).toEqual(['build']);
    expect(byNode.json.totals.files).toBe(4);
    const byFinish = await get('/compare?nodes=finish&format=name_only');
    expect(byFinish.json.files).toEqual([]);
  });

  it('refuses unknown targets, nodes and paths that escape the worktree, naming the field', async () => {
    const cases: [string, string][] = [
      ['/compare?from=attempt:9', 'query.from: attempt:9 is no attempt of this item (1 to 2)'],
      ['/compare?to=yesterday', 'query.to: yesterday is not one of base, latest, last_review or attempt:N'],
      ['/compare?from=last_review', 'query.from: you have not reviewed this item yet'],
      ['/compare?nodes=build,nosuch', "query.nodes: nosuch is no node of this item's chain"],
    ];
    for (const [path, detail] of cases) {
      const r = await get(path);
      expect(r.status, path).toBe(422);
      expect(r.json).toMatchObject({ code: 'validation_failed', detail });
    }
    const paths: [string, string][] = [
      ['../etc/passwd', 'body.path: ../etc/passwd contains ..; name the file relative to the worktree'],
      ['/etc/passwd', 'body.path: /etc/passwd is absolute; name the file relative to the worktree'],
      ['src/', 'body.path: src/ names a folder, not a file'],
      ['never.txt', "body.path: never.txt is not among the item's changes"],
    ];
    for (const [path, detail] of paths) {
      const r = await put(path);
      expect(r.status, path).toBe(422);
      expect(r.json).toMatchObject({ code: 'validation_failed', detail });
    }
    const missing = await http(`${jig.url}/api/work-items/${id}/viewed`, { method: 'PUT', body: {} });
    expect(missing.status).toBe(422);
    expect(missing.json.detail).toContain('path');
  });
});

describe('jig view diff and compare', () => {
  const cli = (...args: string[]) => runJig(args, { JIG_HOME: home, NO_COLOR: '1' });

  it('prints the patch, a diffstat or names, and compares two attempts', async () => {
    const stat = await cli('view', 'diff', id, '--stat');
    expect(stat.code, stat.stderr).toBe(0);
    expect(stat.stdout).toBe(
      [
        ' README.md |    2 +-',
        ' bin.dat   | Bin',
        ' out.txt   |    2 ++',
        ' ws.txt    |    2 +-',
        ' 4 files changed, 4 insertions(+), 2 deletions(-)',
        '',
      ].join('\n'),
    );
    const names = await cli('view', 'diff', id, '--name-only');
    expect(names.stdout).toBe('README.md\nbin.dat\nout.txt\nws.txt\n');
    const patch = await cli('view', 'diff', id);
    expect(patch.stdout).toContain('diff --git a/out.txt b/out.txt');
    expect(patch.stdout).toContain('Binary file bin.dat added\n');
    const between = await cli(
      'view',
      'compare',
      id,
      '--from',
      'attempt:1',
      '--to',
      'attempt:2',
      '--name-only',
    );
    expect(between).toMatchObject({ code: 0, stdout: 'out.txt\n' });
    const json = JSON.parse((await cli('view', 'compare', id, '--json', '-w')).stdout);
    expect(json).toMatchObject({ ignore_whitespace: true, next_offset: null, from: { target: 'base' } });
    const both = await cli('view', 'diff', id, '--stat', '--name-only');
    expect(both).toMatchObject({ code: 2, stderr: 'jig: view diff takes --stat or --name-only, not both\n' });
    const bad = await cli('view', 'compare', id, '--from', 'attempt:7');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('query.from: attempt:7 is no attempt of this item (1 to 2)');
  });
});

describe('the MCP tool compare_changes', () => {
  it('answers one page of a compare, and a bad target as a tool error', async () => {
    const client = new Client({ name: 'jig-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${jig.url}/mcp`)));
    try {
      const r = await call(client, 'compare_changes', {
        work_item_id: id,
        from: 'attempt:1',
        to: 'attempt:2',
        format: 'name_only',
      });
      expect(r.isError, r.text).toBe(false);
      expect(r.data.files.map((f: any) => f.path)).toEqual(['out.txt']);
      const bad = await call(client, 'compare_changes', { work_item_id: id, to: 'attempt:0' });
      expect(bad.isError).toBe(true);
      expect(bad.text).toContain('query.to: attempt:0 is no attempt of this item');
    } finally {
      await client.close();
    }
  });
});
