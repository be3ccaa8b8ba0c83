import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCa, LeafCertificates } from './ca.js';
import { egressProxy } from './egress-proxy.js';

// HTTPS with a credential: the proxy ends the task's TLS with a certificate from the home's CA,
// sets the header, and talks TLS to the real host (here a loopback server with a CA of its own).

describe('egress proxy over TLS', () => {
  let dir: string;
  let sock: string;
  let proxy: Server;
  let upstream: ReturnType<typeof createHttpsServer>;
  let port: number;
  let homeCa: string;
  let upstreamCert: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jig-egress-tls-'));
    sock = join(dir, 'egress.sock');
    const home = ensureCa(join(dir, 'home'));
    homeCa = readFileSync(home.cert, 'utf8');
    // The "real" host: its own CA, which the proxy is told to trust (the host's roots, in use).
    const other = ensureCa(join(dir, 'upstream'));
    const leaf = new LeafCertificates(readFileSync(other.cert, 'utf8'), readFileSync(other.key, 'utf8')).for(
      'localhost',
    );
    upstreamCert = leaf.cert;
    upstream = createHttpsServer({ cert: leaf.cert, key: leaf.key }, (req, res) => {
      const key = req.headers['x-api-key'];
      res.end(`secure ${req.method} ${req.url} key=${typeof key === 'string' ? key : '-'}`);
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const a = upstream.address();
    port = typeof a === 'object' && a !== null ? a.port : 0;
    const leaves = new LeafCertificates(homeCa, readFileSync(home.key, 'utf8'));
    proxy = egressProxy({
      lists: { allow: [`localhost:${port}`, `127.0.0.1:${port}`], deny: [] },
      onRefused: () => undefined,
      resolve: async () => ['127.0.0.1'],
      secrets: [{ hosts: [`localhost:${port}`], header: 'x-api-key', value: 'sk-real' }],
      tls: { leaf: (h) => leaves.for(h), upstreamCa: [readFileSync(other.cert, 'utf8')] },
    });
    await new Promise<void>((r) => proxy.listen(sock, r));
  });
  afterAll(() => {
    proxy.close();
    upstream.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sets the secret on a request inside an HTTPS tunnel, with a certificate only the jail trusts', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const raw = netConnect(sock);
      raw.once('error', reject);
      raw.write(`CONNECT localhost:${port} HTTP/1.1\r\nhost: localhost:${port}\r\n\r\n`);
      raw.once('data', (first) => {
        expect(first.toString()).toBe('HTTP/1.1 200 Connection Established\r\n\r\n');
        // The task trusts the home's CA (its bundle): the certificate it gets is for the host.
        const secure = tlsConnect({ socket: raw, servername: 'localhost', ca: [homeCa] }, () => {
          secure.write(
            `GET /v1/messages HTTP/1.1\r\nhost: localhost:${port}\r\nx-api-key: jig-sandbox-placeholder-K\r\nconnection: close\r\n\r\n`,
          );
        });
        let got = '';
        secure.on('data', (c: Buffer) => (got += c.toString()));
        secure.on('end', () => resolve(got));
        secure.on('error', reject);
      });
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(answer).toContain('secure GET /v1/messages key=sk-real');
  });

  it("a tunnel to a host with no secret is not opened: the host's own certificate comes through", async () => {
    const p2 = egressProxy({
      lists: { allow: [`localhost:${port}`, `127.0.0.1:${port}`], deny: [] },
      onRefused: () => undefined,
      resolve: async () => ['127.0.0.1'],
      tls: { leaf: () => ({ cert: '', key: '' }) },
    });
    const sock2 = join(dir, 'plain.sock');
    await new Promise<void>((r) => p2.listen(sock2, r));
    try {
      const seen = await new Promise<string>((resolve, reject) => {
        const raw = netConnect(sock2);
        raw.write(`CONNECT localhost:${port} HTTP/1.1\r\n\r\n`);
        raw.once('data', () => {
          const secure = tlsConnect(
            { socket: raw, servername: 'localhost', rejectUnauthorized: false },
            () => {
              resolve(secure.getPeerCertificate().fingerprint256);
              secure.destroy();
            },
          );
          secure.on('error', reject);
        });
      });
      expect(seen).toBe(new X509Certificate(upstreamCert).fingerprint256);
    } finally {
      p2.close();
    }
  });
});
