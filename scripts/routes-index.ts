/**
 * Writes docs/routes.md: every route the app registers, with the file that handles it and its
 * summary, read from the app itself. Run `node --import tsx scripts/routes-index.ts` after adding,
 * moving or renaming a route; test/routes-index.test.ts fails while the committed file differs.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { RouteRecord } from '../src/server/app.js';
import { startServer } from '../src/server/main.js';

export const repoRoot = join(import.meta.dirname, '..');
export const routesDoc = join(repoRoot, 'docs', 'routes.md');
export const regenerate = 'node --import tsx scripts/routes-index.ts';

const METHOD_ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The repo-relative file a route's `source` (its file's import.meta.url) names, or null. */
export function handlerFile(route: RouteRecord): string | null {
  if (route.source === undefined) return null;
  return relative(repoRoot, fileURLToPath(route.source)).split(sep).join('/');
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderRoutesIndex(routes: readonly RouteRecord[]): string {
  const rows = [...routes].sort(
    (a, b) =>
      a.url.localeCompare(b.url, 'en') || METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method),
  );
  const lines = [
    '# HTTP routes',
    '',
    `Every route of the server, with the file that handles it. Generated from the running app by`,
    `\`${regenerate}\`; \`test/routes-index.test.ts\` fails when this file and the app differ.`,
    '',
    'Route files are named by URL: `/api/repos` is handled in `routes/repos.ts`,',
    '`/api/work-items/:id/gates/...` in `routes/work-items/gates.ts`, `/api/ws/events` in',
    '`routes/ws/events.ts`. Routes that share a handler or a concept share a file named for the',
    'family: an item itself, its duplicate and the bulk moves in `work-items/index.ts`; cancel,',
    'complete, archive, restore and abandon (and the cancel preview) in `work-items/moves.ts`; resume,',
    "pause, steer, retry and skip in `work-items/run.ts`; a gate's document (`/artifact`) in",
    '`work-items/gates.ts`; `/login` with `/api/auth/*` in `auth.ts`; the schema and its viewers in',
    '`schema-docs.ts`. Each route is described once (method, path, schemas) in the matching file',
    'under `src/contract/routes/`; the server registers it and the client calls it by that description.',
    'The schemas of every route are in `GET /openapi.json`.',
    '',
    '| Method | Path | Handler | Summary |',
    '|---|---|---|---|',
  ];
  for (const r of rows) {
    const file = handlerFile(r);
    const link = file === null ? '(unknown)' : `[${file}](../${file})`;
    lines.push(`| ${r.method} | \`${r.url}\` | ${link} | ${cell(r.summary ?? '')} |`);
  }
  return `${lines.join('\n')}\n`;
}

/** The routes of a freshly built app, in a home of its own (the app needs one to start). */
export async function appRoutes(home: string): Promise<RouteRecord[]> {
  const server = await startServer({ port: 0, host: '127.0.0.1', env: { JIG_HOME: home } });
  try {
    return server.routes;
  } finally {
    await server.close();
  }
}

async function main(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'routes-index-'));
  try {
    const routes = await appRoutes(home);
    writeFileSync(routesDoc, renderRoutesIndex(routes));
    console.log(`wrote docs/routes.md (${routes.length} routes)`);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
