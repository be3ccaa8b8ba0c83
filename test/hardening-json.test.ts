import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo } from './helpers/git.js';
import { cleanupAll, http, startJig, type JigProcess } from './helpers/server.js';

/*
 * Issue 14, finding 6: nesting ~700 deep in PUT /api/policy or ~5 000 in agent_overrides or
 * node_overrides overflowed the stack (500s, and a 502 whose cause was not logged). Every JSON body
 * is now bounded at 32 levels, with a 422 naming the field.
 */

let jig: JigProcess;
let repo: string;
const raw = (method: string, path: string, body: string) =>
  http(`${jig.url}${path}`, { method, raw: body, headers: { 'content-type': 'application/json' } });
const nested = (depth: number): string => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

beforeAll(async () => {
  jig = await startJig();
  repo = makeRepo();
  const r = await http(`${jig.url}/api/repos`, { method: 'POST', body: { path: repo, test_command: '' } });
  expect(r.status).toBe(201);
});
afterAll(cleanupAll);

function refused(field: string) {
  const message = 'nests deeper than 32 levels';
  return { code: 'validation_failed', detail: `${field}: ${message}`, issues: [{ field, message }] };
}

describe('deep JSON bodies', () => {
  it('PUT /api/policy nested 700 deep is a 422 naming the field, and policy.yaml is untouched', async () => {
    const file = join(jig.home, 'config', 'policy.yaml');
    const before = readFileSync(file, 'utf8');
    const r = await raw(
      'PUT',
      '/api/policy',
      `{"default":{"attempts":3,"wall_clock_s":60},"loops":${nested(700)}}`,
    );
    expect([r.status, r.json]).toEqual([422, refused('body.loops.a.a.a…')]);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it.each([
    ['POST', '/api/work-items', 'agent_overrides'],
    ['POST', '/api/work-items', 'node_overrides'],
    ['POST', '/api/work-items', 'policy_override'],
  ])('%s %s with %s nested 5 000 deep is a 422 and files nothing', async (method, path, key) => {
    const total = async () => (await http(`${jig.url}/api/work-items?limit=1`)).json.total;
    const n = await total();
    const r = await raw(
      method,
      path,
      `{"title":"Deep","repo":${JSON.stringify(repo)},"${key}":${nested(5000)}}`,
    );
    expect([r.status, r.json]).toEqual([422, refused(`body.${key}.a.a.a…`)]);
    expect(await total()).toBe(n);
  });

  it('PATCH with node_overrides nested 5 000 deep is a 422', async () => {
    const item = (
      await http(`${jig.url}/api/triggers`, { method: 'POST', body: { title: 'Patch me', repo } })
    ).json;
    const r = await raw('PATCH', `/api/work-items/${item.id}`, `{"node_overrides":${nested(5000)}}`);
    expect([r.status, r.json]).toEqual([422, refused('body.node_overrides.a.a.a…')]);
  });

  it('a deep array is bounded the same way, even where the schema wants a string', async () => {
    const r = await raw(
      'POST',
      '/api/triggers',
      `{"title":"x","repo":"r","description":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
    );
    expect([r.status, r.json]).toEqual([422, refused('body.description.0.0.0…')]);
  });

  it('the bound is 32 levels, the body itself counted', async () => {
    const body = (depth: number) =>
      `{"title":"Edge","repo":${JSON.stringify(repo)},"agent_overrides":${nested(depth)}}`;
    expect((await raw('POST', '/api/work-items', body(31))).status).toBe(201);
    const over = await raw('POST', '/api/work-items', body(32));
    expect([over.status, over.json]).toEqual([422, refused('body.agent_overrides.a.a.a…')]);
  });

  it('bodies within the bound are read as before', async () => {
    const r = await raw(
      'POST',
      '/api/work-items',
      `{"title":"Fine","repo":${JSON.stringify(repo)},"agent_overrides":${nested(20)}}`,
    );
    expect(r.status).toBe(201);
    expect(r.json.agent_overrides).toEqual(JSON.parse(nested(20)));
  });
});
