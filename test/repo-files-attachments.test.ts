import { spawn, spawnSync } from 'node:child_process';
import { linkSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo } from './helpers/git.js';
import { cleanupAll, http, startJig, tempHome, type JigProcess } from './helpers/server.js';

// Finding 7 of issue 14: an attachment by path is opened once and the opened file is checked.

let jig: JigProcess;
let repo: string;
let outside: string;

beforeAll(async () => {
  jig = await startJig();
  repo = makeRepo({ 'package.json': '{"scripts":{"test":"node -e 0"}}\n', 'docs/spec.md': '# The spec\n' });
  outside = realpathSync(tempHome('jig-outside-'));
  writeFileSync(join(outside, 'secret.md'), 'SECRET outside the repo\n');
  const r = await http(`${jig.url}/api/repos`, { method: 'POST', body: { path: repo } });
  expect(r.status).toBe(201);
});
afterAll(cleanupAll);

const file = (spec: unknown) =>
  http(`${jig.url}/api/work-items`, { method: 'POST', body: { title: 'x', repo, attachments: { spec } } });

describe('attachments by path', () => {
  it('refuses a link out of the repo, a hard link, .git/config, a FIFO and a /dev/zero link', async () => {
    symlinkSync(join(outside, 'secret.md'), join(repo, 'docs', 'leak.md'));
    linkSync(join(outside, 'secret.md'), join(repo, 'docs', 'hard.md'));
    expect(spawnSync('mkfifo', [join(repo, 'docs', 'pipe.md')]).status).toBe(0);
    symlinkSync('/dev/zero', join(repo, 'docs', 'zero.md'));
    const cases: [string, string][] = [
      ['docs/leak.md', 'docs/leak.md leads outside the repository'],
      [
        'docs/hard.md',
        'docs/hard.md has 2 hard links; Jig reads only files with one, whose other names could be anywhere',
      ],
      ['.git/config', '.git/config is inside .git, which Jig never reads'],
      ['sub/.git/config', 'sub/.git/config is inside .git, which Jig never reads'],
      ['docs/pipe.md', 'docs/pipe.md is a FIFO, not a regular file'],
      ['docs/zero.md', 'docs/zero.md leads outside the repository'],
    ];
    for (const [path, reason] of cases) {
      const res = await file({ path });
      expect(res.status, path).toBe(422);
      expect(res.json).toEqual({ detail: `spec attachment: ${reason}`, code: 'attachment_unreadable' });
    }
    expect((await http(`${jig.url}/api/health`)).status).toBe(200);
  });

  it('refuses them on PATCH too, and keeps the attachment it had', async () => {
    const filed = await file({ path: 'docs/spec.md' });
    expect(filed.status).toBe(201);
    const res = await http(`${jig.url}/api/work-items/${filed.json.id}`, {
      method: 'PATCH',
      body: { attachments: { spec: { path: 'docs/pipe.md' } } },
    });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({
      detail: 'spec attachment: docs/pipe.md is a FIFO, not a regular file',
      code: 'attachment_unreadable',
    });
    expect((await http(`${jig.url}/api/work-items/${filed.json.id}/attachments/spec`)).text).toBe(
      '# The spec\n',
    );
  });

  it('a folder swapped for a link to the outside while items are filed: no 5xx, nothing outside stored', async () => {
    const box = join(repo, 'box');
    mkdirSync(join(box, 'dir'), { recursive: true });
    writeFileSync(join(box, 'dir', 'doc.md'), '# inside\n');
    mkdirSync(join(outside, 'dir'));
    writeFileSync(join(outside, 'dir', 'doc.md'), 'SECRET outside the repo\n');
    symlinkSync(join(outside, 'dir'), join(box, 'dir.link'));
    // Its own process, so the swaps really run while the server reads; it stops by itself too.
    const swapper = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs'); const b = ${JSON.stringify(box)}; const end = Date.now() + 30000;
         while (Date.now() < end) {
           fs.renameSync(b + '/dir', b + '/dir.real'); fs.renameSync(b + '/dir.link', b + '/dir');
           fs.renameSync(b + '/dir', b + '/dir.link'); fs.renameSync(b + '/dir.real', b + '/dir');
         }`,
      ],
      { stdio: 'ignore' },
    );
    const statuses = new Map<number, number>();
    const stored: string[] = [];
    const refusals = new Set<string>();
    const deadline = Date.now() + 10_000;
    let tries = 0;
    try {
      const worker = async () => {
        while (tries < 300 && Date.now() < deadline) {
          tries++;
          const res = await file({ path: 'box/dir/doc.md' });
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.status === 201) {
            const text = (await http(`${jig.url}/api/work-items/${res.json.id}/attachments/spec`)).text;
            stored.push(text);
          } else if (res.status === 422) {
            expect(res.json.code).toBe('attachment_unreadable');
            refusals.add(res.json.detail);
          }
        }
      };
      await Promise.all([worker(), worker(), worker(), worker()]);
    } finally {
      swapper.kill('SIGKILL');
    }
    console.log(
      `swap race: ${tries} tries, statuses ${JSON.stringify([...statuses])}, refusals ${JSON.stringify([...refusals])}`,
    );
    expect([...statuses.keys()].filter((s) => s >= 500)).toEqual([]);
    expect(stored.filter((t) => t !== '# inside\n')).toEqual([]);
    // The race really ran: some reads found the folder, others its link to the outside.
    expect(stored.length).toBeGreaterThan(0);
    expect(statuses.get(422) ?? 0).toBeGreaterThan(0);
  });
});
