import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo } from './helpers/git.js';
import { cleanupAll, http, startJig, type JigProcess } from './helpers/server.js';

/*
 * Jig's own files (config, stored attachments) sit where a task, running with the user's rights,
 * can put a FIFO or a link to /dev/zero: a plain read would wait forever or exhaust memory, and the
 * whole server with it. They are read only as regular files, never waited on (issue 14).
 */

let jig: JigProcess;
let repo: string;
const api = (method: string, path: string, body?: unknown) => http(`${jig.url}${path}`, { method, body });
const mkfifo = (path: string) => expect(spawnSync('mkfifo', [path]).status).toBe(0);

beforeAll(async () => {
  jig = await startJig();
  repo = makeRepo();
  expect((await api('POST', '/api/repos', { path: repo, test_command: '' })).status).toBe(201);
});
afterAll(cleanupAll);

describe("Jig's own files replaced by a FIFO or a device", () => {
  it('a stored attachment: read back as missing, and a duplicate files without it', async () => {
    const item = (
      await api('POST', '/api/work-items', {
        title: 'With a spec',
        repo,
        attachments: { spec: { text: '# spec' }, plan: { text: '1. plan' } },
      })
    ).json;
    const dir = join(jig.home, 'run', 'attachments', item.id);
    rmSync(join(dir, 'spec.md'));
    mkfifo(join(dir, 'spec.md'));
    rmSync(join(dir, 'plan.md'));
    symlinkSync('/dev/zero', join(dir, 'plan.md'));
    // The store keeps the texts too: what stands in the folder is not read.
    const spec = await fetch(`${jig.url}/api/work-items/${item.id}/attachments/spec`);
    expect([spec.status, await spec.text()]).toEqual([200, '# spec']);
    const both = await api('POST', `/api/work-items/${item.id}/duplicate`);
    expect(Object.keys(both.json.attachments).sort()).toEqual(['plan', 'spec']);
    // An item filed before the store kept them has only the folder: read as missing.
    const db = new Database(join(jig.home, 'run', 'jig.db'));
    try {
      db.prepare('DELETE FROM item_attachments WHERE work_item_id = ?').run(item.id);
    } finally {
      db.close();
    }
    for (const kind of ['spec', 'plan']) {
      const r = await api('GET', `/api/work-items/${item.id}/attachments/${kind}`);
      expect([r.status, r.json]).toEqual([
        404,
        { code: 'attachment_missing', detail: `work item ${item.id} has no ${kind} attachment` },
      ]);
    }
    const dup = await api('POST', `/api/work-items/${item.id}/duplicate`);
    expect(dup.status).toBe(201);
    expect(Object.keys(dup.json.attachments)).toEqual([]);
    expect((await api('GET', '/api/health')).status).toBe(200);
  });

  it('a config file: reads answer at once, say why where they can, and the server keeps serving', async () => {
    const repos = join(jig.home, 'config', 'repos.yaml');
    const saved = readFileSync(repos, 'utf8');
    rmSync(repos);
    mkfifo(repos);
    const r = await api('GET', '/api/repos');
    expect([r.status, r.json]).toEqual([
      422,
      {
        code: 'repos_file_invalid',
        detail: 'repos.yaml does not load: repos.yaml: the file is a FIFO, not a regular file',
      },
    ]);
    rmSync(repos);
    symlinkSync('/dev/zero', repos);
    const zero = await api('GET', '/api/repos');
    expect([zero.status, zero.json.detail]).toEqual([
      422,
      'repos.yaml does not load: repos.yaml: the file is a character device, not a regular file',
    ]);
    // A reload reads an unreadable file as it reads a missing one, and answers.
    const intake = join(jig.home, 'config', 'intake.yaml');
    rmSync(intake);
    mkfifo(intake);
    expect((await api('POST', '/api/apply/reload')).status).toBeLessThan(500);
    expect((await api('GET', '/api/health')).status).toBe(200);
    rmSync(repos);
    writeFileSync(repos, saved);
    expect((await api('GET', '/api/repos')).status).toBe(200);
  });
});
