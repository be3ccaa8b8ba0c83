import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { captureAfter, captureBefore, readChanges } from '../src/runtime/recordings/session-changes.js';
import { makeRepo } from './helpers/git.js';
import { cleanupAll } from './helpers/server.js';

afterAll(cleanupAll);

/*
 * Issue 51: what an agent session changed, for its recording — committed or not, untracked files
 * too; texts read from git's blobs, so a link the agent made out of the worktree is named, never read.
 */

describe('a session’s changes', () => {
  it('keeps the texts it changed, null for what it removed, and names a link, a binary and its document apart', async () => {
    const repo = makeRepo({ 'README.md': '# demo\n', 'old.txt': 'gone soon\n' });
    const run = mkdtempSync(join(tmpdir(), 'jig-changes-'));
    const secret = join(run, 'secret.txt');
    writeFileSync(secret, 'not for a recording\n');
    const docs = join(repo, '.jig', 'docs');
    mkdirSync(docs, { recursive: true });
    // As Jig leaves it (agent-inputs.ts): the documents are kept out of commits, and of the changes.
    writeFileSync(join(docs, '.gitignore'), '*\n');
    const doc = join(docs, 'plan.md');
    await captureBefore(run, 's1', repo, doc);
    writeFileSync(join(repo, 'README.md'), '# demo, changed\n');
    writeFileSync(join(repo, 'new.txt'), 'untracked and new\n');
    writeFileSync(join(repo, 'blob.bin'), Buffer.from([0, 1, 2, 3]));
    symlinkSync(secret, join(repo, 'link.txt'));
    rmSync(join(repo, 'old.txt'));
    writeFileSync(doc, '# The plan\n');
    await captureAfter(run, 's1');
    expect(readChanges(run, 's1')).toEqual({
      files: { 'README.md': '# demo, changed\n', 'new.txt': 'untracked and new\n', 'old.txt': null },
      skipped: ['blob.bin', 'link.txt'],
      document: '# The plan\n',
    });
    expect(readChanges(run, 'nope')).toBeNull();
  });

  it('reads no document through a link put where the document goes', async () => {
    const repo = makeRepo();
    const run = mkdtempSync(join(tmpdir(), 'jig-changes-'));
    const secret = join(run, 'secret.txt');
    writeFileSync(secret, 'not for a recording\n');
    const doc = join(repo, 'plan.md');
    await captureBefore(run, 's2', repo, doc);
    symlinkSync(secret, doc);
    await captureAfter(run, 's2');
    expect(readChanges(run, 's2')).toEqual({ files: {}, skipped: ['plan.md'], document: null });
  });
});
