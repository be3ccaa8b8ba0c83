import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decide, egressProxy, type EgressRefusal } from './egress-proxy.js';

// The proxy on a real unix socket, with real loopback servers behind it; names resolve through an
// injected resolver (no DNS here).

const resolver = async (host: string): Promise<string[]> => {
  const table: Record<string, string[]> = {
    'public.test': ['93.184.216.34'],
    'inside.test': ['127.0.0.1'],
    'both.test': ['93.184.216.34', '10.1.2.3'],
    'metadata.test': ['169.254.169.254'],
    'mapped.test': ['::ffff:127.0.0.1'],
  };
  const hit = table[host];
  if (!hit) throw new Error('ENOTFOUND');
  return hit;
};

describe('decide', () => {
  it('checks the lists by name, then every address the name has', async () => {
    const lists = {
      allow: ['public.test', 'inside.test:80', 'both.test', 'metadata.test', 'mapped.test'],
      deny: [],
    };
    expect(await decide(lists, 'public.test', 443, resolver)).toEqual({ ok: true, address: '93.184.216.34' });
    expect(await decide(lists, 'inside.test', 80, resolver)).toEqual({
      ok: false,
      reason: 'resolves to an internal address (127.0.0.1); allow it by address and port to reach it',
    });
    expect((await decide(lists, 'both.test', 443, resolver)).ok).toBe(false);
    expect((await decide(lists, 'metadata.test', 80, resolver)).ok).toBe(false);
    expect((await decide(lists, 'mapped.test', 443, resolver)).ok).toBe(false);
    expect(await decide({ allow: ['nowhere.test'], deny: [] }, 'nowhere.test', 443, resolver)).toEqual({
      ok: false,
      reason: 'the name does not resolve',
    });
    expect(await decide({ allow: ['127.0.0.1:80'], deny: [] }, '127.0.0.1', 80, resolver)).toEqual({
      ok: true,
      address: '127.0.0.1',
    });
  });
});

describe('egress proxy', () => {
  let dir: string;
  let sock: string;
  let proxy: Server;
  let target: Server;
  let port: number;
  const refused: EgressRefusal[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jig-egress-'));
    sock = join(dir, 'egress.sock');
    target = createServer((req, res) => {
      const key = req.headers['x-api-key'];
      res.end(
        `hello ${req.method} ${req.url} ${req.headers.host}${typeof key === 'string' ? ` key=${key}` : ''}`,
      );
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    const a = target.address();
    port = typeof a === 'object' && a !== null ? a.port : 0;
    proxy = egressProxy({
      lists: { allow: [`127.0.0.1:${port}`], deny: [] },
      onRefused: (r) => refused.push(r),
      resolve: resolver,
      secrets: [{ hosts: ['public.test', `127.0.0.1:${port}`], header: 'X-Api-Key', value: 'sk-real' }],
    });
    await new Promise<void>((r) => proxy.listen(sock, r));
  });
  afterAll(() => {
    proxy.close();
    target.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const viaProxy = (
    url: string,
    more: Record<string, string> = {},
  ): Promise<{ status: number; body: string }> =>
    new Promise((resolve, reject) => {
      const host = url.startsWith('http') ? new URL(url).host : 'x';
      const req = request(
        { socketPath: sock, method: 'GET', path: url, headers: { host, ...more } },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });

  const tunnel = (authority: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const s = connect(sock);
      let got = '';
      s.on('data', (c) => {
        got += c.toString();
        if (got.includes('\r\n\r\n') && got.startsWith('HTTP/1.1 200')) {
          if (!got.includes('hello'))
            s.write(`GET /t HTTP/1.1\r\nhost: ${authority}\r\nconnection: close\r\n\r\n`);
        }
      });
      s.on('end', () => resolve(got));
      s.on('error', reject);
      s.write(`CONNECT ${authority} HTTP/1.1\r\nhost: ${authority}\r\n\r\n`);
    });

  it('forwards an allowed plain-HTTP request and refuses another, recording the refusal', async () => {
    // The placeholder the task sent is replaced by the secret on the way to its host.
    const ok = await viaProxy(`http://127.0.0.1:${port}/a?b=1`, {
      'x-api-key': 'jig-sandbox-placeholder-KEY',
    });
    expect(ok).toEqual({ status: 200, body: `hello GET /a?b=1 127.0.0.1:${port} key=sk-real` });
    const no = await viaProxy('http://127.0.0.1:1/x');
    expect(no).toEqual({
      status: 403,
      body: 'egress to 127.0.0.1:1 refused: not in the sandbox network allow list\n',
    });
    expect(refused.at(-1)).toEqual({
      at: expect.any(String),
      host: '127.0.0.1',
      port: 1,
      reason: 'not in the sandbox network allow list',
    });
    expect((await viaProxy('/relative')).status).toBe(400);
  });

  it('tunnels an allowed CONNECT and refuses one to a name that resolves inside', async () => {
    const ok = await tunnel(`127.0.0.1:${port}`);
    expect(ok).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n\r\n/);
    expect(ok).toContain(`hello GET /t 127.0.0.1:${port}`);
    const no = await tunnel('inside.test:443');
    expect(no).toMatch(/^HTTP\/1\.1 403 Forbidden/);
    expect(refused.at(-1)).toMatchObject({ host: 'inside.test', port: 443 });
  });
});
