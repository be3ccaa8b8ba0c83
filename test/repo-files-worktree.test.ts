import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  lstatSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git } from './helpers/git.js';
import { agentSetup } from './helpers/agents.js';
import { events, fileItem, oneCommand, post, until } from './helpers/engine.js';
import { cleanupAll, http, tempHome, type JigProcess } from './helpers/server.js';

// Findings 1 and 7 of issue 14, in the worktree: `local_files` are copied by the attachment rules,
// and the document a gate decides on is read without following a link out or blocking on a FIFO.

let jig: JigProcess;
let repo: string;
let outside: string;

const one = oneCommand('true');

/** An agent writes the spec (and reports it); a later step may spoil it before the gate reads it. */
const documented = (spoil: string | null) => `
nodes:
  - id: write
    kind: exec
    steps:
      - id: draft
        tasks:
          - id: doc
            kind: agent
            harness: claude
            produces: spec
            prompt: Write the spec.
${
  spoil === null
    ? ''
    : `      - id: spoil
        tasks:
          - id: swap
            kind: subprocess
            run: ${JSON.stringify(`rm .jig/docs/spec.md && ${spoil}`)}
`
}  - id: review
    kind: gate
    message: Read the spec
    artifact: spec
    artifact_required: true
`;

beforeAll(async () => {
  outside = realpathSync(tempHome('jig-outside-'));
  writeFileSync(join(outside, 'secret.md'), 'SECRET outside the repo\n');
  ({ jig, repo } = await agentSetup(
    {
      one,
      doclink: documented(`ln -s ${outside}/secret.md .jig/docs/spec.md`),
      docfifo: documented('mkfifo .jig/docs/spec.md'),
      docfile: documented(null),
    },
    { env: { FAKE_AGENT_MODE: 'done', FAKE_AGENT_ARTIFACT: '# Spec\n' } },
  ));
});
afterAll(cleanupAll);

async function prepared(id: string) {
  const ev = (await events(jig, id)).find((e) => e.type === 'worktree_prepared');
  expect(ev).toBeDefined();
  return ev.payload;
}

describe('local_files', () => {
  it('copies a regular file with its mode, and skips a link out, a FIFO, .git, a missing file and a link at the destination', async () => {
    // A dangling link committed at dest.env: every new worktree holds it. The repo's own checkout
    // has a regular dest.env, so the copy would write through the link if it followed it.
    symlinkSync(join(outside, 'written'), join(repo, 'dest.env'));
    git(repo, 'add', 'dest.env');
    git(repo, 'commit', '-q', '-m', 'a link at the destination');
    rmSync(join(repo, 'dest.env'));
    writeFileSync(join(repo, 'dest.env'), 'DEST=1\n');
    writeFileSync(join(repo, 'local.env'), 'TOKEN=local\n');
    chmodSync(join(repo, 'local.env'), 0o640);
    symlinkSync(join(outside, 'secret.md'), join(repo, 'leak.env'));
    expect(spawnSync('mkfifo', [join(repo, 'pipe.env')]).status).toBe(0);
    const patched = await http(`${jig.url}/api/repos?path=${encodeURIComponent(repo)}`, {
      method: 'PATCH',
      body: { local_files: ['local.env', 'leak.env', 'pipe.env', '.git/config', 'absent.env', 'dest.env'] },
    });
    expect(patched.status, patched.text).toBe(200);

    const item = await fileItem(jig, repo, 'one');
    await until(jig, item.id, (i) => i.status === 'completed');
    const payload = await prepared(item.id);
    expect(payload).toEqual({
      path: expect.any(String),
      branch: item.branch,
      base_branch: 'main',
      base_ref: git(repo, 'rev-parse', 'HEAD'),
      local_files: ['local.env'],
      local_files_skipped: [
        {
          path: 'leak.env',
          reason: 'link_outside',
          detail: `leak.env leads outside the repository (to ${join(outside, 'secret.md')})`,
        },
        { path: 'pipe.env', reason: 'not_regular', detail: 'pipe.env is a FIFO, not a regular file' },
        {
          path: '.git/config',
          reason: 'git_internal',
          detail: '.git/config is inside .git, which Jig never reads',
        },
        { path: 'absent.env', reason: 'missing', detail: 'absent.env does not exist in the repository' },
        {
          path: 'dest.env',
          reason: 'destination_occupied',
          detail: 'dest.env: the destination already holds a symbolic link',
        },
      ],
    });
    const wt = payload.path as string;
    expect(readFileSync(join(wt, 'local.env'), 'utf8')).toBe('TOKEN=local\n');
    expect(statSync(join(wt, 'local.env')).mode & 0o777).toBe(0o640);
    expect(lstatSync(join(wt, 'leak.env'), { throwIfNoEntry: false })).toBeUndefined();
    expect(lstatSync(join(wt, 'dest.env')).isSymbolicLink()).toBe(true);
    expect(lstatSync(join(outside, 'written'), { throwIfNoEntry: false })).toBeUndefined();
  });
});

describe('the document a gate decides on', () => {
  // The refusal says why the document cannot be read (issue 40: it was "needs its document").
  const needsDoc = (why: string) => ({
    detail: `gate review needs its spec document, readable, before it can be approved: .jig/docs/spec.md ${why}`,
    code: 'artifact_required',
  });

  it('a document a later step replaced by a link out of the worktree, or by a FIFO, is not read', async () => {
    const cases: [string, string][] = [
      ['doclink', `leads outside the worktree (to ${join(outside, 'secret.md')})`],
      ['docfifo', 'is a FIFO, not a regular file'],
    ];
    for (const [chain, why] of cases) {
      const item = await fileItem(jig, repo, chain);
      await until(jig, item.id, (i) => i.stop?.kind === 'gate');
      const doc = await http(`${jig.url}/api/work-items/${item.id}/artifact`);
      expect(doc.status, chain).toBe(404);
      expect(doc.json).toEqual({
        detail: `the document of gate review (.jig/docs/spec.md ${why}) not found`,
        code: 'not_found',
      });
      const approve = await post(jig, `/api/work-items/${item.id}/gates/review/approve`);
      expect(approve.status, chain).toBe(422);
      expect(approve.json).toEqual(needsDoc(why));
      expect((await http(`${jig.url}/api/health`)).status).toBe(200);
    }
  });

  it('a document swapped for a link after the task reported it is not read', async () => {
    const item = await fileItem(jig, repo, 'docfile');
    await until(jig, item.id, (i) => i.stop?.kind === 'gate');
    const ok = await http(`${jig.url}/api/work-items/${item.id}/artifact`);
    expect(ok.json).toMatchObject({ gate: 'review', kind: 'spec', text: '# Spec\n' });
    const doc = join((await prepared(item.id)).path as string, '.jig', 'docs', 'spec.md');
    rmSync(doc);
    symlinkSync(join(outside, 'secret.md'), doc);
    const swapped = await http(`${jig.url}/api/work-items/${item.id}/artifact`);
    expect(swapped.status).toBe(404);
    expect(swapped.json).toEqual({
      detail: `the document of gate review (.jig/docs/spec.md leads outside the worktree (to ${join(outside, 'secret.md')})) not found`,
      code: 'not_found',
    });
    const approve = await post(jig, `/api/work-items/${item.id}/gates/review/approve`);
    expect(approve.json).toEqual(needsDoc(`leads outside the worktree (to ${join(outside, 'secret.md')})`));
  });
});
