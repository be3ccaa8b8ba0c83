import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './helpers/built.js';
import { sendCase } from './helpers/fuzz-http.js';
import { tempHome } from './helpers/server.js';

/*
 * A GET carrying a body larger than the socket buffers, to a route whose answer is larger too (the
 * OpenAPI document): the server reads the body before answering, so the caller gets the whole
 * answer instead of a reset connection.
 */

let srv: RunningServer;
let port: number;
beforeAll(async () => {
  srv = await startServer({ port: 0, host: '127.0.0.1', env: { JIG_HOME: tempHome('jig-get-body-') } });
  port = Number(new URL(srv.url).port);
});
afterAll(async () => {
  await srv.close();
});

describe('a GET with a body', () => {
  it('answers the whole OpenAPI document while the caller is still sending 300 KB', async () => {
    const plain = await sendCase(port, {
      op: 'GET /openapi.json',
      kind: 'plain',
      method: 'GET',
      url: '/openapi.json',
      headers: {},
    });
    expect(plain.status).toBe(200);
    for (const size of [300_000, 900_000]) {
      const a = await sendCase(port, {
        op: 'GET /openapi.json',
        kind: 'bytes',
        method: 'GET',
        url: '/openapi.json',
        headers: { 'content-type': 'application/json' },
        body: randomBytes(size),
      });
      expect(a).toEqual(plain);
    }
  });
});
