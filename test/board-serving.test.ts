import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupAll, http, repoRoot, startJig, type JigProcess } from './helpers/server.js';

/*
 * `jig serve` answers the built board: its page on every screen path (history fallback) with the
 * pages' CSP, its hashed files cached for a year, and plain 404s for what it does not have.
 */

let jig: JigProcess;
const built = join(repoRoot, 'dist', 'web');
const assets = readdirSync(join(built, 'assets'));
// The entry files the page names; the item page's graph is a chunk of its own.
const script = assets.find((f) => f.startsWith('index-') && f.endsWith('.js'))!;
const style = assets.find((f) => f.startsWith('index-') && f.endsWith('.css'))!;

beforeAll(async () => {
  jig = await startJig();
});
afterAll(cleanupAll);

describe('the board served by jig serve', () => {
  it('answers its page on every screen path, with the CSP and no caching of the page', async () => {
    const index = readFileSync(join(built, 'index.html'), 'utf8');
    for (const path of [
      '/',
      '/archived',
      '/work-items/k3f9ab2c',
      '/work-items/k3f9ab2c/nodes/build',
      '/settings/policy',
      // The spec's address of Auto-intake, and 1.x addresses the board redirects (docs/board.md).
      '/settings/auto-intake',
      '/settings/intake',
      '/settings/chains/default',
      '/more',
    ]) {
      const r = await http(`${jig.url}${path}`, { headers: { accept: 'text/html' } });
      expect(r.status, path).toBe(200);
      expect(r.text).toBe(index);
      expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(r.headers.get('cache-control')).toBe('no-cache');
      expect(r.headers.get('content-security-policy')).toContain(
        "default-src 'self'; script-src 'self'; style-src 'self'",
      );
      expect(r.headers.get('content-security-policy')).toContain("img-src 'self' data:");
      expect(r.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
    // The page loads only its own files: no other host, no inline script. Code the lazily loaded
    // screens share with the board is preloaded beside it, also from /assets/.
    const refs = [...index.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.filter((r) => !/^\/assets\/[\w-]+\.js$/.test(r) || r === `/assets/${script}`)).toEqual([
      'data:,',
      `/assets/${script}`,
      `/assets/${style}`,
    ]);
    for (const preload of refs.filter((r) => r.endsWith('.js') && r !== `/assets/${script}`))
      expect(index).toContain(`<link rel="modulepreload" crossorigin href="${preload}">`);
    expect(index).not.toMatch(/<script>(?!<\/script>)/);
  });

  it('serves the hashed files for a year and refuses any other name', async () => {
    const js = await http(`${jig.url}/assets/${script}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(js.text).toBe(readFileSync(join(built, 'assets', script), 'utf8'));
    const css = await http(`${jig.url}/assets/${style}`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    for (const name of ['nope.js', '..%2Findex.html', '%2E%2E%2F%2E%2E%2Fpackage.json'])
      expect((await http(`${jig.url}/assets/${name}`)).json).toMatchObject({ code: 'not_found' });
  });

  it('is a plain 404 off its screen paths, and under /api', async () => {
    const other = await http(`${jig.url}/nope`);
    expect(other.status).toBe(404);
    expect(other.json.code).toBe('route_not_found');
    const api = await http(`${jig.url}/api/nope`);
    expect(api.status).toBe(404);
    expect(api.json.code).toBe('route_not_found');
  });
});
