import {
  openApiDocument,
  redocViewer,
  swaggerInitScript,
  swaggerViewer,
} from '../../contract/routes/schema-docs.js';
import { assetUrl, redocScript, swaggerUiScript, swaggerUiStyle } from '../cdn-assets.js';
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

// Served from Jig rather than inline, so the CSP needs no 'unsafe-inline' for scripts.
const swaggerInit = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', validatorUrl: null, deepLinking: true });
});
`;

const redocPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Jig API</title>
</head><body>
<redoc spec-url="/openapi.json"></redoc>
<script src="${assetUrl(redocScript)}" ${tag(redocScript)}></script>
</body></html>
`;

/** The OpenAPI document and its two viewers. */
export const schemaDocsRoutes = routeFile(import.meta.url, (r) => {
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
  r.serve(redocViewer, (_req, reply) =>
    sendHtml(reply, 200, redocPage, {
      scripts: [assetUrl(redocScript)],
      inlineStyles: true,
      workers: ['blob:'],
    }),
  );
});
