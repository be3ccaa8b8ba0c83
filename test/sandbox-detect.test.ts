import { appendFileSync, chmodSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupAll, http, startJig } from './helpers/server.js';

// GET /api/sandbox: what the server's machine can jail tasks with, found by running each tool. The
// server runs with a PATH of stand-ins: a bwrap that cannot make namespaces, a podman that
// answers, and no docker, so the answer is known whatever this machine has.

const bin = mkdtempSync(join(tmpdir(), 'jig-detect-bin-'));
afterAll(async () => {
  await cleanupAll();
  rmSync(bin, { recursive: true, force: true });
});

function script(name: string, body: string): void {
  writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
  chmodSync(join(bin, name), 0o755);
}

describe('GET /api/sandbox', () => {
  it('answers each kind, whether it works and why not, the best that works and the instance default', async () => {
    script('bwrap', 'echo "bwrap: No permissions to create new namespace" >&2; exit 1');
    script('podman', 'echo runc');
    for (const tool of ['git', 'sh', 'env']) symlinkSync(`/usr/bin/${tool}`, join(bin, tool));
    const jig = await startJig({ env: { PATH: bin } });
    const r = await http(`${jig.url}/api/sandbox`);
    expect(r.status, r.text).toBe(200);
    expect(r.json).toEqual({
      kinds: [
        {
          kind: 'bubblewrap',
          works: false,
          why: 'bwrap does not work here: bwrap: No permissions to create new namespace',
        },
        { kind: 'podman', works: true, why: null },
        {
          kind: 'docker',
          works: false,
          why: 'docker is not installed (install docker and start its daemon)',
        },
      ],
      best: 'podman',
      instance_default: null,
      checked_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    // policy.yaml's own sandbox, as reloaded.
    appendFileSync(
      join(jig.home, 'config', 'policy.yaml'),
      '\nsandbox: {kind: podman, image: x, network: {allow: []}}\n',
    );
    const reload = await http(`${jig.url}/api/apply/reload`, { method: 'POST', body: {} });
    expect(reload.status, reload.text).toBe(200);
    const again = await http(`${jig.url}/api/sandbox`);
    expect(again.json).toMatchObject({ best: 'podman', instance_default: 'podman' });
  });
});
