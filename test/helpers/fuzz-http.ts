import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type { Socket } from 'node:net';
import { errorCatalogue } from '../../src/contract/errors.js';
import type { FuzzCase } from './fuzz-cases.js';

/*
 * Sending the fuzz's requests byte for byte (fetch would normalise `..` and refuse some targets),
 * a few at a time, and judging each answer.
 */

export type Answer = { status: number; contentType: string; text: string } | { status: 0; error: string };

/** Generous bound on one answer: a hang is reported as a failure instead of stalling the file. */
const ANSWER_TIMEOUT_MS = 30_000;

export function sendCase(port: number, c: FuzzCase): Promise<Answer> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = { host: `127.0.0.1:${port}`, ...c.headers };
    if (c.body) headers['content-length'] = String(c.body.length);
    let req: ReturnType<typeof request>;
    try {
      req = request(
        { host: '127.0.0.1', port, method: c.method, path: c.url, headers, agent: false, setHost: false },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (d: Buffer) => chunks.push(d));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              contentType: String(res.headers['content-type'] ?? ''),
              text: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          res.on('error', (e) => resolve({ status: 0, error: `answer cut: ${e.message}` }));
        },
      );
    } catch (e) {
      // The client itself refused the target (e.g. a character Node will not put in a request line).
      resolve({ status: 0, error: `not sendable: ${(e as Error).message}` });
      return;
    }
    req.setTimeout(ANSWER_TIMEOUT_MS, () => req.destroy(new Error(`no answer in ${ANSWER_TIMEOUT_MS} ms`)));
    req.on('error', (e) => resolve({ status: 0, error: e.message }));
    req.end(c.body);
  });
}

/** Runs `fn` over `items`, `concurrency` at a time, in order of start. */
export async function pool<T>(
  items: readonly T[],
  concurrency: number,
  fn: (t: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** Where an HTML refusal is the documented answer instead of JSON. */
function htmlAllowed(c: FuzzCase): boolean {
  const path = c.url.split('?')[0]!;
  const form = (c.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
  return (
    (!path.startsWith('/api') && (c.headers.accept ?? '').includes('text/html')) ||
    (form && path === '/api/auth/login')
  );
}

/**
 * Past a limit (headers over 16 KiB, a body over 1 MiB) the server answers early and closes; when
 * our side is still writing, the close can reach us as a reset before the answer does.
 */
function overLimit(c: FuzzCase): boolean {
  return c.url.length > 16 * 1024 || (c.body?.length ?? 0) > 1024 * 1024;
}

/** Why an answer breaks the rules, or null: no 5xx, no dropped connection, every 4xx `{detail, code}`. */
export function judge(c: FuzzCase, a: Answer): string | null {
  if ('error' in a) return overLimit(c) && /ECONNRESET|EPIPE/.test(a.error) ? null : `no answer (${a.error})`;
  if (a.status >= 500) return `answered ${a.status}`;
  // A HEAD answer has no body to judge.
  if (a.status < 400 || c.method === 'HEAD') return null;
  if (a.contentType.startsWith('text/html') && htmlAllowed(c)) return null;
  let body: any;
  try {
    body = JSON.parse(a.text);
  } catch {
    return `${a.status} is not JSON (${a.contentType})`;
  }
  if (typeof body?.detail !== 'string' || body.detail === '') return `${a.status} has no detail`;
  const entry = (errorCatalogue as Record<string, { status: number }>)[body.code];
  if (!entry) return `${a.status} has code ${JSON.stringify(body.code)}, not in the catalogue`;
  // `bad_request` is also the answer for any other 4xx Fastify raises; every other code has one status.
  if (entry.status !== a.status && body.code !== 'bad_request')
    return `${a.status} with code ${body.code}, whose status is ${entry.status}`;
  return null;
}

export interface Failure {
  op: string;
  kind: string;
  request: string;
  answer: string;
  why: string;
}

const cut = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);

export function failure(c: FuzzCase, a: Answer, why: string): Failure {
  const body = c.body ? cut(c.body.toString('utf8'), 160) : '';
  return {
    op: c.op,
    kind: c.kind,
    request: `${c.method} ${cut(c.url, 160)} ${JSON.stringify(c.headers)} ${body}`,
    answer: 'error' in a ? a.error : `${a.status} ${cut(a.text, 300)}`,
    why,
  };
}

export type WsOutcome =
  | { status: 101; frame: string; closed: 'by-server' | 'by-us' }
  | { status: number; text: string }
  | { status: 0; error: string };

/**
 * A WebSocket upgrade to `target`, with our own headers. On 101 the first frame (the hello) is
 * read, then the socket is closed; otherwise the refusal's status and body.
 */
export function wsAttempt(
  port: number,
  target: string,
  headers: Record<string, string> = {},
): Promise<WsOutcome> {
  return new Promise((resolve) => {
    const req = request({
      host: '127.0.0.1',
      port,
      path: target,
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
    req.setTimeout(ANSWER_TIMEOUT_MS, () => req.destroy(new Error('no answer')));
    req.on('upgrade', (_res, socket: Socket, head: Buffer) => {
      let data = head;
      const done = (closed: 'by-server' | 'by-us'): void => {
        socket.destroy();
        // A server text frame: 0x81, a 7-bit length (or 126 + 16 bits), then the payload.
        const len = data[1]! & 0x7f;
        const start = len === 126 ? 4 : 2;
        resolve({ status: 101, frame: data.subarray(start).toString('utf8'), closed });
      };
      socket.on('data', (d: Buffer) => {
        data = Buffer.concat([data, d]);
        if (data.length >= 2) done('by-us');
      });
      socket.on('close', () => done('by-server'));
      if (data.length >= 2) done('by-us');
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', (e) => resolve({ status: 0, error: e.message }));
    req.end();
  });
}
