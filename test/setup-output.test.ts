import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { events, fileItem, until } from './helpers/engine.js';
import { git, makeRepo } from './helpers/git.js';
import { cleanupAll, http, startJig } from './helpers/server.js';

afterAll(cleanupAll);

const ended = (i: any) => i.status !== 'running' && i.status !== 'queued';

describe("what the setup command writes is not the item's change", () => {
  it('keeps it out of the diff and the commit, until someone changes it', async () => {
    const jig = await startJig();
    // Setup creates two files and rewrites a tracked one, as `npm install` writes package-lock.json.
    const repo = makeRepo({ 'README.md': '# demo\n', 'lock.json': '{"v":1}\n' });
    const connect = await http(`${jig.url}/api/repos`, {
      method: 'POST',
      body: {
        path: repo,
        test_command: '',
        setup_command: 'echo made > made.txt && echo gen > gen.txt && echo \'{"v":2}\' > lock.json',
      },
    });
    expect(connect.status, connect.text).toBe(201);
    const item = await fileItem(jig, repo, 'manual');
    const atGate = await until(jig, item.id, ended);
    expect(atGate.current_node, JSON.stringify(atGate)).toBe('change');
    const cut = (await events(jig, item.id)).find((e) => e.type === 'worktree_prepared');
    const worktree: string = cut!.payload.path;
    // Setup did run: its files are in the worktree.
    expect(readFileSync(join(worktree, 'lock.json'), 'utf8')).toBe('{"v":2}\n');

    const kept = (await events(jig, item.id)).find((e) => e.type === 'setup_output_kept_out');
    expect(kept?.payload).toEqual({ created: ['gen.txt', 'made.txt'], changed: ['lock.json'] });
    // Nothing to see yet: not in the item's diff, not in git's status of the worktree.
    const before = await http(`${jig.url}/api/work-items/${item.id}/diff?format=name_only`);
    expect(before.status, before.text).toBe(200);
    expect(before.json.files).toEqual([]);
    expect(git(worktree, 'status', '--porcelain')).toBe('');
    // The repository's own checkout is not affected.
    writeFileSync(join(repo, 'made.txt'), 'in the checkout\n');
    expect(git(repo, 'status', '--porcelain')).toBe('?? made.txt');

    // The person's change, and an edit of one file setup wrote: that edit is theirs to commit.
    writeFileSync(join(worktree, 'greeting.txt'), 'hello\n');
    writeFileSync(join(worktree, 'gen.txt'), 'edited\n');
    const ok = await http(`${jig.url}/api/work-items/${item.id}/gates/change/approve`, {
      method: 'POST',
      body: {},
    });
    expect(ok.status, ok.text).toBe(200);
    const done = await until(jig, item.id, ended);
    expect(done.status, JSON.stringify(done)).toBe('completed');
    expect(git(repo, 'show', '--name-only', '--format=', done.branch).split('\n').sort()).toEqual([
      'gen.txt',
      'greeting.txt',
    ]);
    const released = (await events(jig, item.id)).find((e) => e.type === 'setup_output_released');
    expect(released?.payload).toEqual({ paths: ['gen.txt'] });
    const after = await http(`${jig.url}/api/work-items/${item.id}/diff?format=name_only`);
    expect(after.json.files.map((f: any) => f.path).sort()).toEqual(['gen.txt', 'greeting.txt']);
  });
});
