import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { RouteContract } from '../../src/contract/route.js';
import type { Operation } from './fuzz-cases.js';
import { repoRoot } from './server.js';

/*
 * The routes left out of /openapi.json (`hide: true`: the board's pages and files, the login page,
 * the document and its viewers, /mcp, the WebSocket), read from the contract modules themselves,
 * so the tests that walk the document (the fuzz, "every route is documented") still reach them.
 */

const dir = join(repoRoot, 'src', 'contract', 'routes');

function files(d: string): string[] {
  return readdirSync(d, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? files(join(d, e.name))
      : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')
        ? [join(d, e.name)]
        : [],
  );
}

const isRoute = (v: unknown): v is RouteContract =>
  typeof v === 'object' && v !== null && 'method' in v && 'path' in v && 'summary' in v;

const modules = await Promise.all(
  files(dir).map(async (f) => ({ file: relative(repoRoot, f), mod: await import(pathToFileURL(f).href) })),
);

/** Every hidden route contract (a module's export, or an entry of an exported list). */
export const HIDDEN_ROUTES: RouteContract[] = modules.flatMap(({ mod }) =>
  Object.values(mod as Record<string, unknown>)
    .flatMap((v) => (Array.isArray(v) ? v : [v]))
    .filter(isRoute)
    .filter((r) => r.hide === true),
);

/** `METHOD /path/{param}`, as the document writes an operation. */
export const documentKey = (r: Pick<RouteContract, 'method' | 'path'>): string =>
  `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`;

const jsonSchema = (t: z.ZodType): Record<string, any> =>
  z.toJSONSchema(t, { io: 'input', unrepresentable: 'any' }) as Record<string, any>;

function paramsOf(where: 'path' | 'query', t: z.ZodType | undefined): Operation['params'] {
  if (!t) return [];
  const s = jsonSchema(t);
  const required = new Set<string>(s.required ?? []);
  return Object.entries((s.properties ?? {}) as Record<string, any>).map(([name, schema]) => ({
    in: where,
    name,
    required: where === 'path' || required.has(name),
    schema,
  }));
}

/** The hidden HTTP routes as fuzz operations (the WebSocket has a fuzz of its own). */
export function hiddenOperations(): Operation[] {
  return HIDDEN_ROUTES.filter((r) => !r.path.startsWith('/api/ws/')).map((r) => ({
    method: r.method,
    path: documentKey(r).slice(r.method.length + 1),
    params: [...paramsOf('path', r.params), ...paramsOf('query', r.query)],
    body: r.body ? jsonSchema(r.body) : null,
  }));
}
