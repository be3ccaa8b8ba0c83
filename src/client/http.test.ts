import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ErrorBodySchema } from '../contract/error-body.js';
import { defineRoute } from '../contract/route.js';
import { ApiError, JigClient, UnexpectedAnswerError } from './http.js';

/**
 * A stand-in server: each test says what the next request is answered with, and reads back the
 * request as it arrived. Only the client is under test here; the real server's answers are checked
 * against the same contracts by the integration suites.
 */
interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}
let answer: { status: number; type?: string; body: string } = { status: 200, body: '{}' };
let seen: Seen | null = null;
let server: Server;
let client: JigClient;

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      res.writeHead(answer.status, { 'content-type': answer.type ?? 'application/json; charset=utf-8' });
      res.end(answer.body);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  client = new JigClient({ url: `http://127.0.0.1:${port}`, token: null });
});
afterAll(async () => {
  await new Promise<void>((done) => server.close(() => done()));
});

const Thing = z.object({ id: z.string(), size: z.number().int() });
const getThing = defineRoute({
  operationId: 'getThing',
  method: 'GET',
  path: '/api/things/:id',
  summary: 'a thing',
  tags: ['test'],
  params: z.object({ id: z.string() }),
  query: z.object({ full: z.enum(['0', '1']).optional() }),
  responses: {
    200: Thing,
    404: ErrorBodySchema,
    422: ErrorBodySchema.extend({ problems: z.array(z.string()) }),
  },
});
const dropThing = defineRoute({
  operationId: 'dropThing',
  method: 'DELETE',
  path: '/api/things/:id',
  summary: 'drop a thing',
  tags: ['test'],
  params: z.object({ id: z.string() }),
  body: z.object({ reason: z.string() }),
  responses: { 204: z.null() },
});

describe('JigClient', () => {
  it('fills the path and query from the route and checks the answer against its schema', async () => {
    answer = { status: 200, body: JSON.stringify({ id: 'a b', size: 3, extra: 'dropped' }) };
    const thing = await client.call(getThing, { params: { id: 'a b' }, query: { full: '1' } });
    expect(thing).toEqual({ id: 'a b', size: 3 });
    expect(seen).toMatchObject({ method: 'GET', url: '/api/things/a%20b?full=1', body: '' });
    expect(seen?.headers['content-type']).toBeUndefined();
  });

  it('sends a body as JSON, and reads a 204 as null', async () => {
    answer = { status: 204, body: '' };
    expect(await client.call(dropThing, { params: { id: 'x' }, body: { reason: 'old' } })).toBeNull();
    expect(seen).toMatchObject({ method: 'DELETE', url: '/api/things/x', body: '{"reason":"old"}' });
    expect(seen?.headers['content-type']).toBe('application/json');
  });

  it('refuses a success answer that does not match the contract, naming the field', async () => {
    answer = { status: 200, body: JSON.stringify({ id: 'a', size: 'big' }) };
    const err = await client.call(getThing, { params: { id: 'a' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnexpectedAnswerError);
    expect((err as Error).message).toMatch(/^the answer to GET \/api\/things\/:id \(HTTP 200\) is not what/);
    expect((err as Error).message).toContain('size:');
  });

  it('refuses a success status the route does not declare', async () => {
    answer = { status: 201, body: JSON.stringify({ id: 'a', size: 1 }) };
    await expect(client.call(getThing, { params: { id: 'a' } })).rejects.toThrow(
      /HTTP 201.*the route does not answer this status/,
    );
  });

  it('raises an error answer as an ApiError, keeping a code this client does not know', async () => {
    answer = { status: 409, body: JSON.stringify({ detail: 'from the future', code: 'new_code', n: 1 }) };
    const err = await client.call(getThing, { params: { id: 'a' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    const api = err as ApiError;
    expect(api.status).toBe(409);
    expect(api.message).toBe('from the future');
    expect(api.body).toEqual({ detail: 'from the future', code: 'new_code', n: 1 });
    expect(api.is('not_found')).toBe(false);
  });

  it('answers an error status the route declares from send, checked against its own schema', async () => {
    answer = {
      status: 422,
      body: JSON.stringify({ detail: 'bad', code: 'validation_failed', problems: ['p'] }),
    };
    const res = await client.send(getThing, { params: { id: 'a' } });
    expect(res).toEqual({ status: 422, body: { detail: 'bad', code: 'validation_failed', problems: ['p'] } });
  });

  it('refuses an error answer that is not an error body (a proxy page)', async () => {
    answer = { status: 502, type: 'text/html', body: '<html>Bad gateway</html>' };
    await expect(client.call(getThing, { params: { id: 'a' } })).rejects.toThrow(
      /HTTP 502.*not an error body: "<html>Bad gateway<\/html>"/,
    );
  });

  it('refuses a JSON answer that does not parse', async () => {
    answer = { status: 200, body: '{"id":' };
    await expect(client.call(getThing, { params: { id: 'a' } })).rejects.toThrow(/the body is not JSON/);
  });
});
