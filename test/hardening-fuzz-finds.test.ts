import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from './helpers/perimeter.js';
import { cleanupAll, startJig, type JigProcess } from './helpers/server.js';

/*
 * What the route fuzz (test/fuzz-routes.test.ts) found, each pinned on its own: answers that were
 * a 500, or a 4xx outside the catalogue's `{detail, code}` shape.
 */

let jig: JigProcess;
let port: number;

beforeAll(async () => {
  jig = await startJig();
  port = Number(new URL(jig.url).port);
});
afterAll(cleanupAll);

const deep = '{"a":'.repeat(33) + '1' + '}'.repeat(33);
const tooDeep = {
  code: 'validation_failed',
  detail: 'body.a.a.a.a…: nests deeper than 32 levels',
  issues: [{ field: 'body.a.a.a.a…', message: 'nests deeper than 32 levels' }],
};

/** Raw bytes on a fresh socket; the whole answer once the server closes it. */
function rawExchange(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    let text = '';
    s.setEncoding('utf8');
    s.on('data', (d: string) => (text += d));
    s.on('error', reject);
    s.on('close', () => resolve(text));
    s.on('connect', () => s.write(bytes));
  });
}

function parseRaw(text: string): { status: number; json: unknown } {
  const [head, body] = text.split('\r\n\r\n', 2) as [string, string];
  return { status: Number(head.split(' ')[1]), json: JSON.parse(body) };
}

describe('answers the route fuzz found', () => {
  it.each(['/api/apply/reload', '/api/templates/reload'])(
    'POST %s with a body nested too deep is the 422 every route gives (was a 500: its 422 schema fit only config_refused)',
    async (path) => {
      const r = await send(
        { port },
        { method: 'POST', path, headers: { 'content-type': 'application/json' }, body: deep },
      );
      expect([r.status, r.json]).toEqual([422, tooDeep]);
    },
  );

  it('GET /api/templates/chains//resolved is a 422 naming params.id (was a 500: its 422 schema needed problems)', async () => {
    const r = await send({ port }, { path: '/api/templates/chains//resolved' });
    expect([r.status, r.json]).toEqual([
      422,
      {
        code: 'validation_failed',
        detail: 'params.id: Too small: expected string to have >=1 characters',
        issues: [{ field: 'params.id', message: 'Too small: expected string to have >=1 characters' }],
      },
    ]);
  });

  it.each(['%ff', '%', '%zz', '%C0%AE', '%u0041'])(
    'a path with the bad escape %s is a 400 bad_request naming the path (was Fastify’s own body)',
    async (seg) => {
      const r = await send({ port }, { method: 'POST', path: `/api/work-items/${seg}/cancel` });
      expect([r.status, r.json]).toEqual([
        400,
        { code: 'bad_request', detail: 'path: not valid percent-encoded UTF-8' },
      ]);
    },
  );

  it('a path param of 5 000 characters reaches its route and is a 422 naming it (was a 414 in Fastify’s shape)', async () => {
    const r = await send({ port }, { path: `/api/work-items/${'a'.repeat(5000)}` });
    expect(r.status).toBe(422);
    expect(r.json).toEqual({
      code: 'validation_failed',
      detail: 'params.id: Too big: expected string to have <=64 characters',
      issues: [{ field: 'params.id', message: 'Too big: expected string to have <=64 characters' }],
    });
  });

  it('a request line and headers over 16 KiB are a 431 headers_too_large', async () => {
    const text = await rawExchange(
      `GET /api/work-items/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`,
    );
    expect(parseRaw(text)).toEqual({
      status: 431,
      json: { code: 'headers_too_large', detail: 'the request line and headers are larger than 16384 bytes' },
    });
  });

  it('a request that is not HTTP is a 400 bad_request', async () => {
    const text = await rawExchange(
      `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: abc\r\n\r\n`,
    );
    expect(parseRaw(text)).toEqual({
      status: 400,
      json: { code: 'bad_request', detail: 'the request is not valid HTTP/1.1' },
    });
  });

  it('the server still answers after all of them', async () => {
    expect((await send({ port }, { path: '/api/health' })).status).toBe(200);
  });
});
