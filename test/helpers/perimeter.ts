import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { hashPassword } from '../../src/client/password-hash.js';
import { jigBin, tempHome } from './server.js';

/** Where to send a request: a TCP port on 127.0.0.1, or a unix socket (the netns forwarder). */
export type Target = { port: number } | { socketPath: string };

export interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

/**
 * One HTTP request with full control of the headers (fetch will not send a chosen `Host`, nor
 * skip `Sec-Fetch-*`-free defaults). `host` defaults to `127.0.0.1:<port>`.
 */
export function send(
  target: Target,
  opts: { method?: string; path?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Res> {
  const port = 'port' in target ? target.port : 8765;
  const headers: Record<string, string> = { host: `127.0.0.1:${port}`, ...opts.headers };
  if (opts.body !== undefined) headers['content-length'] = String(Buffer.byteLength(opts.body));
  return new Promise((resolve, reject) => {
    const req = request(
      {
        ...('port' in target ? { host: '127.0.0.1', port: target.port } : { socketPath: target.socketPath }),
        method: opts.method ?? 'GET',
        path: opts.path ?? '/',
        headers,
        agent: false,
        // Node would otherwise refuse an empty Host we send on purpose.
        setHost: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => {
          let json: any = null;
          try {
            json = JSON.parse(text);
          } catch {
            json = null;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

export interface Handshake {
  status: number;
  json: unknown;
}

/**
 * A real WebSocket upgrade request to `/api/ws/events`, sent by hand so every header is ours
 * (`host` defaults to `127.0.0.1:<port>`). 101 means the handshake was accepted; the socket is
 * closed at once.
 */
export function handshake(
  port: number,
  headers: Record<string, string>,
  path = '/api/ws/events',
): Promise<Handshake> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port,
      path,
      agent: false,
      setHost: false,
      headers: {
        host: `127.0.0.1:${port}`,
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': randomBytes(16).toString('base64'),
        ...headers,
      },
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, json: null });
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) as unknown }));
    });
    req.on('error', reject);
    req.end();
  });
}

export function jsonBody(body: unknown): { body: string; headers: Record<string, string> } {
  return { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
}

/** Cheap scrypt parameters for test homes (the CLI's own default is tested through the CLI). */
export function testHash(password: string): Promise<string> {
  return hashPassword(password, { ln: 10, r: 8, p: 1 });
}

/** A temp home whose access.yaml is exactly this (the server seeds only what is missing). */
export function homeWithAccess(yaml: string): string {
  const home = tempHome('jig-perimeter-');
  mkdirSync(join(home, 'config'), { recursive: true });
  writeFileSync(join(home, 'config', 'access.yaml'), yaml);
  return home;
}

/** The `name=value` of the session cookie a login answer set. */
export function sessionCookie(res: Res): string {
  const set = res.headers['set-cookie'];
  const line = (Array.isArray(set) ? set : [set ?? '']).find((c) => c.startsWith('jig_session='));
  if (!line) throw new Error(`no session cookie in ${JSON.stringify(res.headers)}`);
  return line.split(';')[0]!;
}

// ---- A remote peer, inside a network namespace -------------------------------------------------

/** The extra address the namespace gives its loopback device; connecting to it makes a non-loopback peer. */
export const NETNS_REMOTE_ADDR = '10.77.0.1';

const NS_SETUP = `ip link set lo up && ip addr add ${NETNS_REMOTE_ADDR}/32 dev lo`;
const UNSHARE = ['-rn', '--pid', '--fork', '--kill-child', '--mount-proc'];

/**
 * Whether this machine lets us make a user + network namespace (unprivileged user namespaces, or
 * root). When it does not, the pure decision table covers the remote-peer rows alone.
 */
export function netnsAvailable(): boolean {
  const r = spawnSync('unshare', [...UNSHARE, 'sh', '-c', NS_SETUP], { stdio: 'ignore', timeout: 10_000 });
  return r.status === 0;
}

// Forwards each connection on a unix socket (reachable across namespaces, as a file) to an
// address inside the namespace. Runs inside it, next to the server.
const FORWARDER = `
const net = require('node:net');
const [sock, host, port] = process.argv.slice(1);
net.createServer((c) => {
  const u = net.connect(Number(port), host);
  c.pipe(u).pipe(c);
  c.on('error', () => u.destroy());
  u.on('error', () => c.destroy());
}).listen(sock);
`;

/** Quotes one word for sh. */
function shq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export interface NetnsJig {
  home: string;
  /** Requests through here reach the server from ${NETNS_REMOTE_ADDR}: a remote peer. */
  remote: Target;
  /** Requests through here reach it from 127.0.0.1 inside the namespace: a loopback peer. */
  local: Target;
  /** What the server wrote so far: its stdout, then its stderr. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Runs `jig serve --host 0.0.0.0` alone in a new user, network and pid namespace, so binding
 * every address exposes nothing outside it. The namespace's pid 1 is the server: when it dies the
 * kernel ends the forwarders, and `--kill-child` ends it if unshare itself is killed.
 */
export async function startJigInNetns(home: string, env: NodeJS.ProcessEnv = {}): Promise<NetnsJig> {
  const remoteSock = join(home, 'remote.sock');
  const localSock = join(home, 'local.sock');
  const node = shq(process.execPath);
  const fwd = shq(FORWARDER);
  const script = [
    NS_SETUP,
    `${node} -e ${fwd} ${shq(remoteSock)} ${NETNS_REMOTE_ADDR} 8765 &`,
    `${node} -e ${fwd} ${shq(localSock)} 127.0.0.1 8765 &`,
    `exec ${node} ${shq(jigBin)} serve --host 0.0.0.0 --port 8765`,
  ].join('\n');
  const proc: ChildProcess = spawn('unshare', [...UNSHARE, 'sh', '-c', script], {
    env: { ...process.env, JIG_HOME: home, JIG_HOST: '', JIG_PORT: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Kept apart: two pipes arrive in no fixed order, and a line of one can land inside the other's.
  let stdout = '';
  let stderr = '';
  proc.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const all = (): string => `${stdout}${stdout.endsWith('\n') || stdout === '' ? '' : '\n'}${stderr}`;
  const exited = new Promise<void>((res) => proc.once('exit', () => res()));
  const stop = async (): Promise<void> => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    await exited;
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`jig in netns did not start:\n${all()}`)), 20_000);
      const poll = setInterval(() => {
        if (/jig listening on /.test(stdout) && existsSync(remoteSock) && existsSync(localSock)) {
          clearInterval(poll);
          clearTimeout(timer);
          resolve();
        }
      }, 50);
      void exited.then(() => {
        clearInterval(poll);
        clearTimeout(timer);
        reject(new Error(`jig in netns exited before listening:\n${all()}`));
      });
    });
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    home,
    remote: { socketPath: remoteSock },
    local: { socketPath: localSock },
    output: all,
    stop,
  };
}
