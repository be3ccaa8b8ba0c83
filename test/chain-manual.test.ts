import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { events, fileItem, until } from './helpers/engine.js';
import { git, makeRepo } from './helpers/git.js';
import { cleanupAll, http, runJig, startJig } from './helpers/server.js';

afterAll(cleanupAll);

const ended = (i: any) => i.status !== 'running' && i.status !== 'queued';

describe('the seeded manual chain (no agent CLI needed)', () => {
  it('waits for the change, runs the tests, commits it on the branch and completes', async () => {
    // The tests pass only once the person's change is there: they run after the gate.
    const jig = await startJig();
    const repo = makeRepo();
    const connect = await http(`${jig.url}/api/repos`, {
      method: 'POST',
      body: { path: repo, test_command: 'test -f greeting.txt', setup_command: '' },
    });
    expect(connect.status, connect.text).toBe(201);
    const item = await fileItem(jig, repo, 'manual');
    const env = { JIG_HOME: jig.home, JIG_URL: jig.url };

    const atGate = await until(jig, item.id, ended);
    expect(atGate.stop, JSON.stringify(atGate)).toMatchObject({ kind: 'gate' });
    expect(atGate.current_node).toBe('change');

    // The person's change, made in the item's worktree as the gate's message says.
    const where = await runJig(['repo', 'path', item.id], env);
    expect(where.code, where.stderr).toBe(0);
    const worktree = where.stdout.trim();
    writeFileSync(join(worktree, 'greeting.txt'), 'hello\n');

    const approved = await runJig(['item', 'approve', item.id], env);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain('approved change');

    const done = await until(jig, item.id, ended);
    expect(done.status, JSON.stringify(done)).toBe('completed');
    // The commit names the item: its title, then the item's id.
    expect(git(repo, 'log', '--format=%s%n%b', '-1', done.branch)).toBe(
      `Run manual\nJig work item ${item.id} (manual chain)`,
    );
    expect(git(repo, 'show', '--name-only', '--format=', done.branch).split('\n').sort()).toEqual([
      'greeting.txt',
    ]);
    // Where the change is: the branch, its commit, not merged until the person merges it.
    const sha = git(repo, 'rev-parse', done.branch);
    const commits = await http(`${jig.url}/api/work-items/${item.id}/commits`);
    expect(commits.status, commits.text).toBe(200);
    expect(commits.json.branches).toEqual([
      {
        repo,
        branch: done.branch,
        base_branch: 'main',
        exists: true,
        merged: false,
        more: false,
        commits: [
          {
            sha,
            short: git(repo, 'rev-parse', '--short', sha),
            subject: 'Run manual',
            author: expect.any(String),
            at: expect.any(String),
          },
        ],
      },
    ]);
    git(repo, 'merge', '-q', '--ff-only', done.branch);
    const merged = await http(`${jig.url}/api/work-items/${item.id}/commits`);
    expect(merged.json.branches[0]).toMatchObject({ merged: true, commits: [{ sha }] });
    // Before its first start an item has no branch yet; an unknown item is 404.
    const paused = await fileItem(jig, repo, 'manual', false);
    expect((await http(`${jig.url}/api/work-items/${paused.id}/commits`)).json).toEqual({ branches: [] });
    expect((await http(`${jig.url}/api/work-items/nope1234/commits`)).status).toBe(404);
    const types = (await events(jig, item.id)).map((e) => e.type);
    expect(types).toContain('gate_approved');
    expect(types).not.toContain('agent_started');
  });

  it('refuses a reject at the first gate in words, with what to do instead, over the API and the CLI', async () => {
    const jig = await startJig();
    const repo = makeRepo();
    const connect = await http(`${jig.url}/api/repos`, {
      method: 'POST',
      body: { path: repo, test_command: '', setup_command: '' },
    });
    expect(connect.status, connect.text).toBe(201);
    const item = await fileItem(jig, repo, 'manual');
    const atGate = await until(jig, item.id, ended);
    expect(atGate.current_node).toBe('change');
    // Nothing runs before the gate: the item says a reject has nowhere to go.
    expect(atGate.gate_reject_to).toBe(null);

    const r = await http(`${jig.url}/api/work-items/${item.id}/gates/change/reject`, {
      method: 'POST',
      body: { note: 'not like this' },
    });
    expect([r.status, r.json]).toEqual([
      409,
      {
        code: 'reject_nowhere',
        gate: 'change',
        detail:
          'there is nothing before gate change to send the item back to (no exec node runs before it); cancel the item or approve it',
      },
    ]);
    const env = { JIG_HOME: jig.home, JIG_URL: jig.url };
    const cli = await runJig(['item', 'reject', item.id, '--note', 'not like this'], env);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toBe(
      `jig: there is nothing before gate change to send the item back to (no exec node runs before it); cancel the item or approve it (jig item cancel ${item.id}, or jig item approve ${item.id})\n`,
    );
    // Nothing changed: the item still waits at the gate, and cancelling it works.
    const still = (await http(`${jig.url}/api/work-items/${item.id}`)).json;
    expect([still.status, still.current_node, still.gate_request]).toEqual([
      'stopped',
      'change',
      atGate.gate_request,
    ]);
    const cancel = await runJig(['item', 'cancel', item.id], env);
    expect(cancel.code, cancel.stderr).toBe(0);
  });
});
