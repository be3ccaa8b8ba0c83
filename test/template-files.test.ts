import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATED_CHAIN } from './helpers/gated-chain.js';
import { cleanupAll, startJig, type JigProcess } from './helpers/server.js';

/*
 * library.yaml and chain files saved whole on a real server over its seeded files: checked as a
 * reload would (a library that would break a chain is refused), with an ETag, written and reloaded.
 */

let jig: JigProcess;
const cfg = (f: string) => join(jig.home, 'config', f);

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${jig.url}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, etag: res.headers.get('etag'), json: text ? JSON.parse(text) : null };
}

beforeAll(async () => {
  jig = await startJig();
});
afterAll(cleanupAll);

describe('template files', () => {
  it('reads library.yaml as text with its ETag, and saves it whole, comments and all', async () => {
    const got = await call('GET', '/api/templates/library/file');
    expect(got.status).toBe(200);
    expect(got.json).toEqual({ file: 'library.yaml', text: readFileSync(cfg('library.yaml'), 'utf8') });
    const text = `# edited by a test\n${got.json.text}`;
    const saved = await call('PUT', '/api/templates/library', { text }, { 'if-match': got.etag! });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    expect(saved.json.file).toBe('library.yaml');
    expect(saved.json.reload.refused).toEqual([]);
    expect(readFileSync(cfg('library.yaml'), 'utf8')).toBe(text);
    expect(saved.etag).not.toBe(got.etag);
    // The old ETag is stale now.
    const stale = await call('PUT', '/api/templates/library', { text }, { 'if-match': got.etag! });
    expect(stale.status).toBe(409);
    expect(stale.json.code).toBe('template_changed');
  });

  it('refuses a library that would break the chains, naming the problems, and writes nothing', async () => {
    const before = readFileSync(cfg('library.yaml'), 'utf8');
    const r = await call('PUT', '/api/templates/library', { text: 'nodes: {}\nsteps: {}\ntasks: {}\n' });
    expect(r.status).toBe(422);
    expect(r.json.code).toBe('template_invalid');
    expect(r.json.detail).toMatch(/^library\.yaml was not saved: it would break chains: /);
    expect(r.json.problems.length).toBeGreaterThan(0);
    expect(readFileSync(cfg('library.yaml'), 'utf8')).toBe(before);
  });

  it('creates and saves a chain file after the checks; a broken one is refused with its problems', async () => {
    const created = await call('PUT', '/api/templates/chains/mine/file', { text: GATED_CHAIN });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    expect(created.json.reload.loaded).toContain('chains/mine.yaml');
    expect((await call('GET', '/api/templates/chains')).json.chains.map((c: any) => c.id)).toContain('mine');
    const read = await call('GET', '/api/templates/chains/mine/file');
    expect(read.json).toEqual({ file: 'chains/mine.yaml', text: GATED_CHAIN });
    const bad = await call('PUT', '/api/templates/chains/mine/file', {
      text: 'nodes:\n  - id: x\n    kind: exec\n    tasks:\n      - id: t\n        kind: agent\n        harness: nobody\n        prompt: p\n',
    });
    expect(bad.status).toBe(422);
    expect(bad.json.problems.some((p: any) => p.file === 'chains/mine.yaml')).toBe(true);
    expect(readFileSync(cfg('chains/mine.yaml'), 'utf8')).toBe(GATED_CHAIN);
    expect((await call('GET', '/api/templates/chains/nope/file')).status).toBe(404);
    const escape = await call('PUT', '/api/templates/chains/..%2Fevil/file', { text: GATED_CHAIN });
    expect(escape.status).toBe(422);
    expect(existsSync(join(jig.home, 'config', 'evil.yaml'))).toBe(false);
  });
});
