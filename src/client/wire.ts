import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** What the client reads of an answer: its status, one header at a time, and its whole body. */
export interface WireAnswer {
  status: number;
  header(name: string): string | null;
  text: string;
}

function one(headers: IncomingHttpHeaders, name: string): string | null {
  const v = headers[name.toLowerCase()];
  if (v === undefined) return null;
  return Array.isArray(v) ? v.join(', ') : v;
}

/**
 * One HTTP exchange with node:http. Not `fetch`: Node loads its HTTP client (undici) on the first
 * `fetch`, about 30 ms of CPU on each `jig` verb, which makes one request or three. A connection of
 * its own per request (`agent: false`): a kept-alive socket would hold a short verb's process open.
 * A failure to connect rejects with the system error (`connect ECONNREFUSED 127.0.0.1:8765`).
 */
export function exchangeOnce(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
): Promise<WireAnswer> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const headers = { ...init.headers };
    if (init.body !== undefined) headers['content-length'] = String(Buffer.byteLength(init.body));
    const req = send(target, { method: init.method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          header: (name) => one(res.headers, name),
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.on('error', reject);
    req.end(init.body);
  });
}
