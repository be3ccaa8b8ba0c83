import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteRecord } from '../src/server/app.js';
import { appRoutes, handlerFile, regenerate, renderRoutesIndex, routesDoc } from '../scripts/routes-index.js';
import { cleanupAll, tempHome } from './helpers/server.js';

let routes: RouteRecord[];

beforeAll(async () => {
  routes = await appRoutes(tempHome());
});
afterAll(async () => {
  await cleanupAll();
});

describe('docs/routes.md', () => {
  it('knows the file of every route (each is registered from a route file)', () => {
    expect(routes.length).toBeGreaterThan(4);
    expect(routes.filter((r) => handlerFile(r) === null).map((r) => `${r.method} ${r.url}`)).toEqual([]);
    for (const r of routes) expect(handlerFile(r), `${r.method} ${r.url}`).toMatch(/^src\/server\/routes\//);
  });

  it('gives every route a summary', () => {
    expect(routes.filter((r) => !r.summary).map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });

  it(`is what the app registers (regenerate it with \`${regenerate}\`)`, () => {
    const have = existsSync(routesDoc) ? readFileSync(routesDoc, 'utf8') : '';
    expect(have, `docs/routes.md differs from the app's routes; run \`${regenerate}\``).toBe(
      renderRoutesIndex(routes),
    );
  });
});
