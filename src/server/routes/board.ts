import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { JigError } from '../../contract/errors.js';
import { boardAsset, boardPages } from '../../contract/routes/board.js';
import { packageRoot } from '../../runtime/package-root.js';
import { sendHtml, simplePage } from '../html.js';
import { routeFile } from '../route-file.js';

/** Where `npm run build` puts the board (vite, web/vite.config.ts): dist/web beside dist/server. */
export const BOARD_DIR = join(packageRoot, 'dist', 'web');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
};

interface Built {
  index: string;
  assets: Map<string, { bytes: Buffer; type: string }>;
}

/**
 * The built board, read once, with the first request for the board (not at start: a server that
 * only answers the API or the CLI never holds its files): a handful of hashed files, so every
 * request is answered from memory and no request path ever reaches the file system.
 */
function readBuilt(dir: string): Built | null {
  const index = join(dir, 'index.html');
  if (!existsSync(index)) return null;
  const assets = new Map<string, { bytes: Buffer; type: string }>();
  const assetDir = join(dir, 'assets');
  for (const name of existsSync(assetDir) ? readdirSync(assetDir) : []) {
    const type = TYPES[extname(name)];
    if (type) assets.set(name, { bytes: readFileSync(join(assetDir, name)), type });
  }
  return { index: readFileSync(index, 'utf8'), assets };
}

const NOT_BUILT = simplePage(
  'The board is not built',
  '<h1>The board is not built</h1><p>This copy of Jig has no <code>dist/web</code>. Run <code>npm run build</code> (or <code>npm ci</code>, which builds it) and restart <code>jig serve</code>. The API answers meanwhile.</p>',
);

/** `/` and the board's other screen paths answer its page (the browser routes); `/assets/*` its files. */
export const boardRoutes = routeFile(import.meta.url, (r, dir: string = BOARD_DIR) => {
  let read: { built: Built | null } | null = null;
  const board = (): Built | null => (read ??= { built: readBuilt(dir) }).built;
  for (const page of boardPages) {
    r.serve(page, (_req, reply) => {
      const built = board();
      if (!built) return sendHtml(reply, 503, NOT_BUILT);
      // The page names its hashed files, so it must never be cached past a rebuild.
      void reply.header('cache-control', 'no-cache');
      return sendHtml(reply, 200, built.index);
    });
  }
  r.serve(boardAsset, async (req, reply) => {
    const asset = board()?.assets.get(req.params.file);
    if (!asset) throw new JigError('not_found', { what: `board file ${req.params.file}` });
    return reply
      .header('content-type', asset.type)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(asset.bytes);
  });
});
