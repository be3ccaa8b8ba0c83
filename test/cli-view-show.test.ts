import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git } from './helpers/git.js';
import { engineSetup, events, fileItem, until } from './helpers/engine.js';
import { cleanupAll, http, runJig, type JigProcess } from './helpers/server.js';

/*
 * `jig view show` says where an item's branch and worktree are and what to do with an ended item;
 * a cancelled item can be abandoned afterwards, which deletes both (issue 28, point 3).
 */

const quick = `
description: finish at once
nodes:
  - id: work
    kind: exec
    tasks:
      - id: hello
        kind: subprocess
        run: echo hello
`;
const slow = `
description: wait until cancelled
nodes:
  - id: work
    kind: exec
    tasks:
      - id: wait
        kind: subprocess
        run: sleep 60
`;

let jig: JigProcess;
let repo: string;
let env: NodeJS.ProcessEnv;
const show = (id: string) => runJig(['view', 'show', id], env);

beforeAll(async () => {
  ({ jig, repo } = await engineSetup({ quick, slow }));
  env = { JIG_HOME: jig.home, NO_COLOR: '1', JIG_WORK_ITEM_ID: '' };
}, 60_000);
afterAll(cleanupAll);

/** The lines every item shows, around the ones under test. */
const shown = (item: any, status: string, where: string[], next: string[] = []) =>
  [
    `${item.id}  ${item.title}`,
    `status   ${status}`,
    `chain    ${item.chain}`,
    `repo     ${repo}`,
    ...where,
    'budget   $0.00 of $10.00 (policy)',
    ...next,
    '',
  ].join('\n');

const worktreeOf = async (id: string): Promise<string> =>
  (await events(jig, id)).find((e) => e.type === 'worktree_prepared').payload.path;

describe('view show', () => {
  it('a paused item not started has no branch or worktree yet', async () => {
    const item = await fileItem(jig, repo, 'quick', false);
    expect(await show(item.id)).toEqual({
      code: 0,
      stderr: '',
      stdout: shown(item, 'paused', [`branch   ${item.branch} (not created yet)`, 'worktree none yet']),
    });
  });

  it('a completed item names its worktree and says an archive frees the branch', async () => {
    const item = await fileItem(jig, repo, 'quick');
    await until(jig, item.id, (i) => i.status === 'completed');
    const wt = await worktreeOf(item.id);
    expect(await show(item.id)).toEqual({
      code: 0,
      stderr: '',
      stdout: shown(
        { ...item, chain: 'quick' },
        'done',
        [`branch   ${item.branch}`, `worktree ${wt}`],
        [`next     jig item archive ${item.id} removes the worktree and frees the branch ${item.branch}`],
      ),
    });
    expect((await runJig(['item', 'archive', item.id], env)).code).toBe(0);
    expect(await show(item.id)).toEqual({
      code: 0,
      stderr: '',
      stdout: shown(item, 'archived', [`branch   ${item.branch}`, `worktree ${wt} (removed)`]),
    });
  });

  it('a cancelled item can be abandoned, which deletes its worktree and branch and records it', async () => {
    const item = await fileItem(jig, repo, 'slow');
    await until(jig, item.id, (i) => i.current_node === 'work');
    const wt = await worktreeOf(item.id);
    expect(await runJig(['item', 'cancel', item.id, '--reason', 'not now'], env)).toEqual({
      code: 0,
      stderr: '',
      stdout: `cancelled ${item.id}\n`,
    });
    expect(await show(item.id)).toEqual({
      code: 0,
      stderr: '',
      stdout: shown(
        { ...item, chain: 'slow at work' },
        'cancelled',
        [`branch   ${item.branch}`, `worktree ${wt}`],
        [
          `next     jig item archive ${item.id} removes the worktree and frees the branch ${item.branch}; ` +
            `jig item abandon ${item.id} --reason TEXT --yes deletes the worktree and the branch`,
        ],
      ),
    });
    expect(await runJig(['item', 'abandon', item.id, '--reason', 'clean up', '--yes'], env)).toEqual({
      code: 0,
      stderr: '',
      stdout: `abandoned ${item.id}\n`,
    });
    expect(git(repo, 'branch', '--list', item.branch)).toBe('');
    const evs = (await events(jig, item.id)).filter((e) =>
      ['work_item_cancelled', 'work_item_abandoned', 'worktree_reclaimed'].includes(e.type),
    );
    expect(evs.map((e) => [e.type, e.payload])).toEqual([
      ['work_item_cancelled', { from: 'running', reason: 'not now' }],
      ['work_item_abandoned', { from: 'cancelled', reason: 'clean up' }],
      ['worktree_reclaimed', { worktree_removed: true, branch_deleted: true }],
    ]);
    expect(await show(item.id)).toEqual({
      code: 0,
      stderr: '',
      stdout: shown({ ...item, chain: 'slow at work' }, 'abandoned', [
        `branch   ${item.branch} (deleted)`,
        `worktree ${wt} (removed)`,
      ]),
    });
  });

  it('an archived cancelled item can still be abandoned, and stays archived', async () => {
    const item = await fileItem(jig, repo, 'quick', false);
    await http(`${jig.url}/api/work-items/${item.id}/cancel`, { method: 'POST', body: {} });
    await http(`${jig.url}/api/work-items/${item.id}/archive`, { method: 'POST', body: {} });
    expect((await show(item.id)).stdout).toBe(
      shown(item, 'archived', [`branch   ${item.branch} (not created yet)`, 'worktree none yet']),
    );
    const r = await http(`${jig.url}/api/work-items/${item.id}/abandon`, {
      method: 'POST',
      body: { reason: 'gone' },
    });
    expect([r.status, r.json.status, r.json.archived]).toEqual([200, 'abandoned', true]);
  });
});
