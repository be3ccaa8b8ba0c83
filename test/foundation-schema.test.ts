import { documentKey, HIDDEN_ROUTES } from './helpers/hidden-routes.js';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './helpers/built.js';
import {
  assetUrl,
  cdnAssets,
  redocScript,
  swaggerUiScript,
  swaggerUiStyle,
} from '../src/server/cdn-assets.js';
import { cleanupAll, http, repoRoot, tempHome } from './helpers/server.js';

const run = promisify(execFile);

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ port: 0, host: '127.0.0.1', env: { JIG_HOME: tempHome() } });
});
afterAll(async () => {
  await server.close();
  await cleanupAll();
});

describe('GET /openapi.json', () => {
  it('is OpenAPI 3.1 naming Jig and the installed version', async () => {
    const res = await http(`${server.url}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.json.openapi).toBe('3.1.0');
    expect(res.json.info.title).toBe('Jig');
    expect(res.json.info.version).toBe(
      JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version,
    );
  });

  it('lists every registered HTTP route but the hidden ones, which are not API (the board, the viewers, /mcp)', async () => {
    const doc = (await http(`${server.url}/openapi.json`)).json;
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(ops)) documented.add(`${method.toUpperCase()} ${path}`);
    }
    const registered = server.routes
      .filter((r) => !r.url.startsWith('/api/ws/')) // the WebSocket is not an HTTP route
      .map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`);
    expect(registered.length).toBeGreaterThan(4);
    const hidden = new Set(HIDDEN_ROUTES.map(documentKey));
    expect(registered.filter((r) => !documented.has(r) && !hidden.has(r))).toEqual([]);
    expect(registered.filter((r) => documented.has(r) && hidden.has(r))).toEqual([]);
    expect(registered).toContain('GET /api/health');
    expect(registered).toContain('GET /openapi.json');
    expect([...hidden].filter((r) => r.startsWith('GET /api/') && !r.startsWith('GET /api/ws/'))).toEqual([]);
  });
});

describe('schema viewer pages', () => {
  for (const [path, assets] of [
    ['/docs', [swaggerUiScript, swaggerUiStyle]],
    ['/redoc', [redocScript]],
  ] as const) {
    it(`${path} loads pinned, integrity-checked files and sends a strict CSP`, async () => {
      const res = await http(`${server.url}${path}`, { headers: { accept: 'text/html' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      for (const a of assets) {
        const url = assetUrl(a);
        expect(url).toMatch(new RegExp(`@${a.version.replace(/\./g, '\\.')}/`));
        expect(res.text).toContain(`="${url}" integrity="${a.integrity}" crossorigin="anonymous"`);
      }
      // Every external script or style on the page is one of the pinned files.
      const external = [...res.text.matchAll(/(?:src|href)="(https?:[^"]+)"/g)].map((m) => m[1]);
      expect(external.sort()).toEqual(assets.map(assetUrl).sort());
      const csp = res.headers.get('content-security-policy')!;
      const directives = Object.fromEntries(
        csp.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]),
      );
      expect(directives['img-src']).toEqual(["'self'", 'data:']);
      expect(directives['frame-ancestors']).toEqual(["'none'"]);
      expect(directives['script-src']).toEqual([
        "'self'",
        ...assets.filter((a) => a.file.endsWith('.js')).map(assetUrl),
      ]);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    });
  }

  it('serves the Swagger UI start-up script from Jig itself', async () => {
    const res = await http(`${server.url}/docs/init.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.text).toContain("url: '/openapi.json'");
  });

  // Child processes without blocking: the server under test lives in this process, and a loop
  // held for seconds let a kept-alive connection be reused as the server closed it (ECONNRESET on
  // the next test's request).
  it('pins hashes that match the files in the npm packages', async () => {
    // jsDelivr serves the npm tarball's bytes; hash the same files from the registry tarballs.
    const cache = join(repoRoot, '.cache', 'sri');
    mkdirSync(cache, { recursive: true });
    for (const a of cdnAssets) {
      const dir = join(cache, `${a.pkg}-${a.version}`);
      if (!existsSync(join(dir, 'package', a.file))) {
        mkdirSync(dir, { recursive: true });
        const packed = await run(
          'npm',
          ['pack', `${a.pkg}@${a.version}`, '--silent', '--pack-destination', dir],
          {
            encoding: 'utf8',
          },
        );
        const tgz = packed.stdout.trim();
        await run('tar', ['-xzf', join(dir, tgz.split('\n').pop()!), '-C', dir]);
      }
      const digest = createHash('sha384')
        .update(readFileSync(join(dir, 'package', a.file)))
        .digest('base64');
      expect(`sha384-${digest}`, `${a.pkg}@${a.version}/${a.file}`).toBe(a.integrity);
    }
  }, 120_000);
});

describe('error answers', () => {
  it('an unknown /api route is a JSON 404', async () => {
    const res = await http(`${server.url}/api/nothing-here?x=1`);
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ detail: 'no route GET /api/nothing-here', code: 'route_not_found' });
  });

  it('a browser asking for an unknown page gets a small HTML 404 with the CSP', async () => {
    const res = await http(`${server.url}/no/such/page`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(404);
    expect(res.text).toContain('Nothing is at <code>/no/such/page</code>');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('malformed JSON is a 400 naming the problem', async () => {
    const res = await http(`${server.url}/api/apply/reload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      raw: '{"a":',
    });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('invalid_json');
    expect(res.json.detail).toMatch(/^the request body is not valid JSON: /);
  });

  it('a body that is not JSON is a 415', async () => {
    const res = await http(`${server.url}/api/apply/reload`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
      raw: 'a,b',
    });
    expect(res.status).toBe(415);
    expect(res.json).toEqual({
      detail: 'send the body as application/json (got text/csv)',
      code: 'unsupported_media_type',
    });
  });

  it('a body over 1 MiB is a 413', async () => {
    const res = await http(`${server.url}/api/apply/reload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      raw: JSON.stringify({ pad: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(res.status).toBe(413);
    expect(res.json).toEqual({
      detail: 'the request body is larger than 1048576 bytes',
      code: 'payload_too_large',
    });
  });

  it('an empty JSON body is a 400', async () => {
    const res = await http(`${server.url}/api/apply/reload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      raw: '',
    });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      detail: 'the request body is not valid JSON: the body is empty',
      code: 'invalid_json',
    });
  });
});
