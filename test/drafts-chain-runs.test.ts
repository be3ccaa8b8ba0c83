import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { clockedSetup, closeClocked } from './helpers/engine-clock.js';
import { events, fileItem, until } from './helpers/engine.js';
import { git } from './helpers/git.js';
import { cleanupAll, http } from './helpers/server.js';

/*
 * Issue 16, "a drafted and published chain runs an item end to end": a chain that exists only as
 * ops on a chains draft, published through the route, is the chain an item is then filed on, and
 * its subprocess task runs in the item's worktree. In-process server (helpers/engine-clock.ts);
 * the task is a real child process.
 */

afterEach(async () => {
  try {
    await closeClocked();
  } finally {
    await cleanupAll();
  }
});

const FILE = 'chains/built.yaml';
const RUN = 'echo built >> out.txt && git add out.txt && git commit -qm built';

describe('a chain drafted with ops and published', () => {
  it('runs an item end to end: the task commits on the item’s branch and the item completes', async () => {
    const { jig, repo } = await clockedSetup({});
    const ops = (list: unknown[]) =>
      http(`${jig.url}/api/drafts/chains/built/ops`, { method: 'POST', body: { ops: list } });

    // A new chain with no node is a draft with a problem until the node comes.
    const created = await ops([{ op: 'new_chain' }]);
    expect(created.status, created.text).toBe(200);
    expect(created.json.draft).toBe(true);
    expect(created.json.result.problems.length).toBeGreaterThan(0);

    const built = await ops([
      { op: 'add_node', at: 0, id: 'build', kind: 'exec' },
      { op: 'add_task', container: 'build', step: 'main', kind: 'subprocess', id: 'touch' },
      { op: 'set_field', path: 'build.main.touch', field: 'run', value: RUN },
      { op: 'set_field', path: '', field: 'description', value: 'Writes out.txt and commits it.' },
    ]);
    expect(built.status, built.text).toBe(200);
    expect(built.json.ops).toEqual([
      { op: 'add_node' },
      { op: 'add_task', result: { path: 'build.main.touch' } },
      { op: 'set_field' },
      { op: 'set_field' },
    ]);
    expect(built.json.result.problems).toEqual([]);
    expect(built.json.result.yaml_error).toBeNull();
    expect(parse(built.json.files[FILE])).toEqual({
      description: 'Writes out.txt and commits it.',
      nodes: [{ id: 'build', kind: 'exec', tasks: [{ id: 'touch', kind: 'subprocess', run: RUN }] }],
    });

    // Not a chain an item can use until it is published.
    const early = await http(`${jig.url}/api/work-items`, {
      method: 'POST',
      body: { title: 'too early', repo, chain: 'built', start: false },
    });
    expect(early.status).toBe(422);
    expect(early.json).toEqual({
      code: 'chain_unknown',
      detail:
        'chain built names no chain in the library (chains: default, manual, merge-request, quick-task)',
      chains: ['default', 'manual', 'merge-request', 'quick-task'],
    });

    const published = await http(`${jig.url}/api/drafts/chains/built/publish`, { method: 'POST' });
    expect(published.status, published.text).toBe(200);
    expect(published.json.published).toEqual([FILE]);
    expect(published.json.result.problems).toEqual([]);
    const chains = await http(`${jig.url}/api/templates/chains`);
    expect(chains.json.chains.find((c: { id: string }) => c.id === 'built')).toMatchObject({
      description: 'Writes out.txt and commits it.',
      running: true,
      resolves: true,
    });

    const item = await fileItem(jig, repo, 'built');
    const done = await until(jig, item.id, (i) => i.status !== 'running' && i.status !== 'queued');
    expect(done.status, JSON.stringify(done)).toBe('completed');
    expect(done.chain).toBe('built');
    // The command ran in the worktree: its commit is on the item's branch, not on main.
    expect(git(repo, 'log', '--format=%s', done.branch)).toBe('built\ninitial');
    expect(git(repo, 'show', `${done.branch}:out.txt`)).toBe('built');
    expect(git(repo, 'log', '--format=%s', 'main')).toBe('initial');
    const types = (await events(jig, item.id)).map((e) => `${e.type}${e.node ? `@${e.node}` : ''}`);
    expect(types).toEqual([
      'work_item_created',
      'work_item_started',
      'worktree_prepared',
      'node_started@build',
      'worker_session_started@build',
      'worker_session_exited@build',
      'node_completed@build',
      'work_item_completed',
    ]);
  });
});
