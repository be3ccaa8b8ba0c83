import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineSetup, fileItem, post } from './helpers/engine.js';
import { GATED_CHAIN } from './helpers/gated-chain.js';
import { cleanupAll, http, type JigProcess } from './helpers/server.js';

/*
 * Issue 40, point 5: refusals that answered wrong. Each is refused with the code and field the
 * catalogue gives, and the file or row it would have changed is left as it was.
 */

let jig: JigProcess;
let repo: string;
let home: string;
const api = (method: string, path: string, body?: unknown) => http(`${jig.url}${path}`, { method, body });

beforeAll(async () => {
  ({ jig, repo, home } = await engineSetup({ gated: GATED_CHAIN }));
});
afterAll(cleanupAll);

describe('refusals', () => {
  it('PATCH /api/repos refuses steering the library does not define, leaving repos.yaml as it was', async () => {
    const file = join(home, 'config', 'repos.yaml');
    const before = readFileSync(file, 'utf8');
    const path = `/api/repos?path=${encodeURIComponent(repo)}`;
    for (const names of [['nope'], ['project-standards', 'nope', 'constructor']]) {
      const r = await api('PATCH', path, { steering: names });
      expect([r.status, r.json]).toEqual([
        422,
        {
          code: 'repo_steering_invalid',
          detail: `repo ${repo} names steering the library does not define: ${names.filter((n) => n !== 'project-standards').join(', ')}`,
        },
      ]);
      expect(readFileSync(file, 'utf8')).toBe(before);
    }
    // Items of the repo are still filed; a name the library has is saved.
    expect((await api('POST', '/api/work-items', { title: 'Still filed', repo })).status).toBe(201);
    const ok = await api('PATCH', path, { steering: ['project-standards'] });
    expect([ok.status, ok.json.entry.steering]).toEqual([200, ['project-standards']]);
    expect((await api('POST', '/api/work-items', { title: 'Filed with steering', repo })).status).toBe(201);
  });

  it('PUT /api/access refuses a wildcard in allowed_hosts, naming the entry; exact names are saved', async () => {
    const file = join(home, 'config', 'access.yaml');
    const before = readFileSync(file, 'utf8');
    const wild = await api('PUT', '/api/access', { allowed_hosts: ['jig.example.com', '*.ts.net'] });
    const message =
      '"*.ts.net" is not an exact host name: list each name a browser uses (no wildcards), with an optional :port';
    expect([wild.status, wild.json]).toEqual([
      422,
      {
        code: 'validation_failed',
        detail: `body.allowed_hosts.1: ${message}`,
        issues: [{ field: 'body.allowed_hosts.1', message }],
      },
    ]);
    for (const bad of [['https://jig.example'], ['jig example'], ['']]) {
      const r = await api('PUT', '/api/access', { allowed_hosts: bad });
      expect([r.status, r.json.issues[0].field]).toEqual([422, 'body.allowed_hosts.0']);
    }
    expect(readFileSync(file, 'utf8')).toBe(before);
    const exact = ['jig.example.com', '192.168.1.20:8765', '[::1]', 'box'];
    const ok = await api('PUT', '/api/access', { allowed_hosts: exact });
    expect([ok.status, ok.json.allowed_hosts]).toEqual([200, exact]);
  });

  it('a review naming a gate the chain does not have is 404 gate_unknown, started or not', async () => {
    const paused = await fileItem(jig, repo, 'gated', false);
    const unknown = await post(jig, `/api/work-items/${paused.id}/gates/nope/review`, { outcome: 'approve' });
    expect([unknown.status, unknown.json]).toEqual([
      404,
      { code: 'gate_unknown', detail: "nope is no gate of this item's chain" },
    ]);
    const notAGate = await post(jig, `/api/work-items/${paused.id}/gates/build/review`, {
      outcome: 'approve',
    });
    expect([notAGate.status, notAGate.json.code]).toEqual([404, 'gate_unknown']);
    // The chain's own gate, not waiting yet: 409, as on a started item.
    const early = await post(jig, `/api/work-items/${paused.id}/gates/review/review`, { outcome: 'approve' });
    expect([early.status, early.json]).toEqual([
      409,
      {
        code: 'gate_not_waiting',
        detail: 'gate review is not waiting for a decision (the item is paused)',
        status: 'paused',
        gate: 'review',
        request: null,
      },
    ]);
  });
});
