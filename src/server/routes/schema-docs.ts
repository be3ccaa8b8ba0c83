import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JigError } from '../../contract/errors.js';
import { packageRoot } from '../../runtime/package-root.js';
import {
  openApiDocument,
  redocInitScript,
  redocViewer,
  swaggerInitScript,
  swaggerViewer,
  viewerFile,
} from '../../contract/routes/schema-docs.js';
import {
  assetUrl,
  cdnAssets,
  localUrl,
  redocScript,
  swaggerUiScript,
  swaggerUiStyle,
  vendorFile,
} from '../cdn-assets.js';
import { sendHtml } from '../html.js';
import { routeFile } from '../route-file.js';

const tag = (a: typeof swaggerUiScript): string =>
  `integrity="${a.integrity}" crossorigin="anonymous" referrerpolicy="no-referrer"`;

const swaggerPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Jig API</title>
<link rel="stylesheet" href="${assetUrl(swaggerUiStyle)}" ${tag(swaggerUiStyle)}>
</head><body>
<div id="swagger-ui"></div>
<script src="${assetUrl(swaggerUiScript)}" ${tag(swaggerUiScript)}></script>
<script src="/docs/init.js"></script>
</body></html>
`;

// Served from Jig rather than inline, so the CSP needs no 'unsafe-inline' for scripts. It runs
// after the CDN's script (in order, so that one has loaded or failed): when the CDN could not be
// reached, it loads Jig's own copies of the script and the stylesheet, then starts the viewer.
const swaggerInit = `(function () {
  function start() {
    window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', validatorUrl: null, deepLinking: true });
  }
  if (typeof window.SwaggerUIBundle === 'function') {
    if (document.readyState === 'complete') start();
    else window.addEventListener('load', start);
    return;
  }
  // No script from the CDN: its stylesheet, from the same host, did not come either.
  var own = document.createElement('link');
  own.rel = 'stylesheet';
  own.href = ${JSON.stringify(localUrl(swaggerUiStyle))};
  document.head.appendChild(own);
  var script = document.createElement('script');
  script.src = ${JSON.stringify(localUrl(swaggerUiScript))};
  script.onload = start;
  document.body.appendChild(script);
})();
`;

// Redoc starts by itself on the <redoc> element once its script runs, the CDN's or Jig's copy.
const redocInit = `(function () {
  if (typeof window.Redoc !== 'undefined') return;
  var script = document.createElement('script');
  script.src = ${JSON.stringify(localUrl(redocScript))};
  document.body.appendChild(script);
})();
`;

const redocPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Jig API</title>
</head><body>
<redoc spec-url="/openapi.json"></redoc>
<script src="${assetUrl(redocScript)}" ${tag(redocScript)}></script>
<script src="/redoc/init.js"></script>
</body></html>
`;

/** Where the build copies the viewers' files (scripts/copy-viewers.mjs). */
const VENDOR_DIR = join(packageRoot, 'dist', 'vendor');

/**
 * The local copies, read once, with the first request for one (about 2.5 MB that most servers
 * never send): the files are fixed by their pins, a request names one of them.
 */
function readVendored(): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const a of cdnAssets) {
    const path = join(VENDOR_DIR, vendorFile(a));
    if (existsSync(path)) files.set(localUrl(a), readFileSync(path));
  }
  return files;
}

/** The OpenAPI document and its two viewers, with local copies of their files for when the CDN is down. */
export const schemaDocsRoutes = routeFile(import.meta.url, (r) => {
  let vendored: Map<string, Buffer> | null = null;
  r.serve(openApiDocument, async () => r.app.swagger());
  r.serve(swaggerViewer, (_req, reply) =>
    sendHtml(reply, 200, swaggerPage, {
      scripts: [assetUrl(swaggerUiScript)],
      styles: [assetUrl(swaggerUiStyle)],
      inlineStyles: true,
    }),
  );
  r.serve(swaggerInitScript, async (_req, reply) => {
    void reply.header('content-type', 'text/javascript; charset=utf-8');
    return swaggerInit;
  });
  r.serve(redocInitScript, async (_req, reply) => {
    void reply.header('content-type', 'text/javascript; charset=utf-8');
    return redocInit;
  });
  r.serve(viewerFile, async (req, reply) => {
    const url = `/docs/vendor/${req.params.pkg}/${req.params.file}`;
    vendored ??= readVendored();
    const bytes = vendored.get(url);
    if (!bytes) throw new JigError('not_found', { what: `viewer file ${url}` });
    return reply
      .header(
        'content-type',
        url.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8',
      )
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(bytes);
  });
  r.serve(redocViewer, (_req, reply) =>
    sendHtml(reply, 200, redocPage, {
      scripts: [assetUrl(redocScript)],
      inlineStyles: true,
      workers: ['blob:'],
    }),
  );
});
