import { lookup } from 'node:dns/promises';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { rootCertificates, TLSSocket } from 'node:tls';
import { BlockList, connect, isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { addressNamed, egressVerdict, type EgressLists } from '../../core/sandbox/egress-rules.js';

/**
 * The egress proxy of one sandboxed session (docs/sandbox.md, ADR 0033): HTTP with absolute URLs
 * and CONNECT tunnels, on a unix socket the sandbox reaches through its relay. Written by hand: the
 * proxies on npm forward to any host, and the checks that matter here (lists by name, then every
 * resolved address against the private ranges, the connection pinned to the address checked) sit
 * between the name and the socket, where no library offers a hook.
 */

/** What the proxy refused; one JSON line each in the session's egress log. */
export interface EgressRefusal {
  at: string;
  host: string;
  port: number;
  reason: string;
}

/** Loopback, private, shared, link-local (cloud metadata) and unspecified addresses. */
const INTERNAL = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  INTERNAL.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  INTERNAL.addSubnet(net, bits, 'ipv6');

function internal(address: string): boolean {
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (v4 !== undefined) return INTERNAL.check(v4, 'ipv4');
  const family = isIP(address);
  return family === 0 || INTERNAL.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

export type Resolver = (host: string) => Promise<string[]>;
const systemResolver: Resolver = async (host) => (await lookup(host, { all: true })).map((a) => a.address);

type Decision = { ok: true; address: string } | { ok: false; reason: string };

/** The address to connect to, or why not: the lists by name, then each address the name has. */
export async function decide(
  lists: EgressLists,
  host: string,
  port: number,
  resolve: Resolver = systemResolver,
): Promise<Decision> {
  const bare = host.replace(/^\[|\]$/g, '');
  const v = egressVerdict(lists, bare, port);
  if (!v.ok) return v;
  let addresses: string[];
  try {
    addresses = isIP(bare) !== 0 ? [bare] : await resolve(bare);
  } catch {
    return { ok: false, reason: 'the name does not resolve' };
  }
  const first = addresses[0];
  if (first === undefined) return { ok: false, reason: 'the name does not resolve' };
  // Every address must pass: a name that also points inside could be answered either way later.
  for (const a of addresses)
    if (internal(a) && !addressNamed(lists, a, port))
      return {
        ok: false,
        reason: `resolves to an internal address (${a}); allow it by address and port to reach it`,
      };
  return { ok: true, address: first };
}

function hostPort(authority: string, fallback: number): { host: string; port: number } | null {
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(authority);
  const host = m?.[1];
  if (!m || host === undefined) return null;
  const port = m[2] !== undefined ? Number(m[2]) : fallback;
  return port >= 1 && port <= 65535 ? { host, port } : null;
}

/** A header the proxy sets on plain-HTTP requests to `hosts` (a secret the task never sees). */
export interface InjectedHeader {
  hosts: string[];
  header: string;
  value: string;
}

export interface EgressProxyOptions {
  lists: EgressLists;
  secrets?: InjectedHeader[];
  /**
   * Certificates for the hosts a secret goes to over HTTPS: the proxy ends the task's TLS with one
   * (signed by the home's sandbox CA, which the jail trusts) to set the header. Without it such a
   * tunnel passes through untouched, the placeholder with it.
   */
  tls?: { leaf(host: string): { cert: string; key: string }; upstreamCa?: string[] };
  onRefused(r: EgressRefusal): void;
  resolve?: Resolver;
}

/** The proxy server (not listening yet): `listen(socketPath)` is the caller's. */
export function egressProxy(o: EgressProxyOptions): Server {
  const secretsFor = (host: string, port: number): InjectedHeader[] =>
    (o.secrets ?? []).filter((sec) => egressVerdict({ allow: sec.hosts, deny: [] }, host, port).ok);
  // Requests arriving inside a tunnel the proxy ended: sent on over TLS with the secrets set.
  const ended = new WeakMap<object, { host: string; address: string; port: number }>();
  const inner = createServer((req, res) => {
    const to = ended.get(req.socket);
    if (!to) {
      res.writeHead(502).end();
      return;
    }
    const headers = { ...req.headers };
    for (const sec of secretsFor(to.host, to.port)) headers[sec.header.toLowerCase()] = sec.value;
    const up = httpsRequest(
      {
        host: to.address,
        port: to.port,
        servername: isIP(to.host) === 0 ? to.host : undefined,
        method: req.method,
        path: req.url,
        headers,
        ...(o.tls?.upstreamCa ? { ca: [...rootCertificates, ...o.tls.upstreamCa] } : {}),
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    up.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`egress to ${to.host}:${to.port} failed: ${err.message}\n`);
    });
    req.pipe(up);
  });
  const refuse = (host: string, port: number, reason: string): string => {
    o.onRefused({ at: new Date().toISOString(), host, port, reason });
    return `egress to ${host}:${port} refused: ${reason}`;
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void forward(req, res);
  });
  async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res
        .writeHead(400, { 'content-type': 'text/plain' })
        .end('an egress proxy request needs an absolute URL\n');
      return;
    }
    if (url.protocol !== 'http:') {
      res
        .writeHead(400, { 'content-type': 'text/plain' })
        .end('only http:// is proxied; use CONNECT for https\n');
      return;
    }
    const port = url.port === '' ? 80 : Number(url.port);
    const d = await decide(o.lists, url.hostname, port, o.resolve);
    if (!d.ok) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end(`${refuse(url.hostname, port, d.reason)}\n`);
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-connection'];
    delete headers['proxy-authorization'];
    for (const sec of secretsFor(url.hostname, port)) headers[sec.header.toLowerCase()] = sec.value;
    const up = request(
      { host: d.address, port, method: req.method, path: `${url.pathname}${url.search}`, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    up.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`egress to ${url.hostname}:${port} failed: ${err.message}\n`);
    });
    req.pipe(up);
  }
  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    void tunnel(req, client, head);
  });
  async function tunnel(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    client.on('error', () => undefined);
    const target = hostPort(req.url ?? '', 443);
    if (!target) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const d = await decide(o.lists, target.host, target.port, o.resolve);
    if (!d.ok) {
      const why = refuse(target.host.replace(/^\[|\]$/g, ''), target.port, d.reason);
      client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\n${why}\n`);
      return;
    }
    const host = target.host.replace(/^\[|\]$/g, '');
    if (o.tls && secretsFor(host, target.port).length > 0) {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) client.unshift(head);
      const leaf = o.tls.leaf(host);
      const secure = new TLSSocket(client, { isServer: true, cert: leaf.cert, key: leaf.key });
      secure.on('error', () => client.destroy());
      ended.set(secure, { host, address: d.address, port: target.port });
      inner.emit('connection', secure);
      return;
    }
    const up: Socket = connect({ host: d.address, port: target.port });
    up.on('error', () => client.destroy());
    client.on('close', () => up.destroy());
    up.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) up.write(head);
      up.pipe(client);
      client.pipe(up);
    });
  }
  return server;
}
