import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { engineSetup, until } from './helpers/engine.js';
import { cleanupAll, http, repoRoot } from './helpers/server.js';

/*
 * Issue 44, finding 5: every answer carrying user text says what it is (`nosniff`) and is never
 * run as a page (a restrictive CSP); pages keep their own policy and scripts none. A real server,
 * a real task's log, a real attachment.
 */

afterEach(cleanupAll);

const TEXT_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";

const headersOf = (res: { headers: Headers }) => ({
  type: res.headers.get('content-type'),
  nosniff: res.headers.get('x-content-type-options'),
  csp: res.headers.get('content-security-policy'),
});

describe('answer headers', () => {
  it('JSON, errors, attachments and session logs: nosniff and a CSP that runs nothing; pages their own, scripts none', async () => {
    const { jig, repo } = await engineSetup({
      talk: `
nodes:
  - id: talk
    kind: exec
    tasks:
      - id: say
        kind: subprocess
        run: 'echo "<script>alert(1)</script>"'
`,
    });
    const filed = await http(`${jig.url}/api/work-items`, {
      method: 'POST',
      body: {
        title: '<img src=x onerror=alert(1)>',
        repo,
        chain: 'talk',
        start: true,
        attachments: { spec: { text: '<script>alert(1)</script>\n' } },
      },
    });
    expect(filed.status, filed.text).toBe(201);
    const item = filed.json;
    await until(jig, item.id, (i) => i.status === 'completed');
    const s = (await http(`${jig.url}/api/work-items/${item.id}/sessions`)).json.sessions[0];

    const text = { nosniff: 'nosniff', csp: TEXT_CSP };
    const answers = {
      json: await http(`${jig.url}/api/work-items/${item.id}`),
      error: await http(`${jig.url}/api/work-items/wi_nope`),
      attachment: await http(`${jig.url}/api/work-items/${item.id}/attachments/spec`),
      log: await http(`${jig.url}/api/work-items/${item.id}/sessions/${s.id}/log`),
    };
    expect(
      Object.fromEntries(Object.entries(answers).map(([k, r]) => [k, [r.status, headersOf(r)]])),
    ).toEqual({
      json: [200, { type: 'application/json; charset=utf-8', ...text }],
      error: [404, { type: 'application/json; charset=utf-8', ...text }],
      attachment: [200, { type: 'text/markdown; charset=utf-8', ...text }],
      log: [200, { type: 'text/plain; charset=utf-8', ...text }],
    });
    expect(answers.log.text).toBe('<script>alert(1)</script>\n');

    // The board's page keeps its own policy; its scripts carry none (a worker's script's policy
    // would be the worker's), and are not sniffed either.
    const page = headersOf(await http(`${jig.url}/`));
    expect(page.nosniff).toBe('nosniff');
    expect(page.csp).toMatch(/script-src 'self'/);
    const script = readdirSync(join(repoRoot, 'dist', 'web', 'assets')).find((f) => f.endsWith('.js'));
    const asset = await http(`${jig.url}/assets/${script}`);
    expect(asset.status).toBe(200);
    expect(headersOf(asset)).toEqual({
      type: 'text/javascript; charset=utf-8',
      nosniff: 'nosniff',
      csp: null,
    });
  });
});
