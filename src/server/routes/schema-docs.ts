import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { assetUrl, redocScript, swaggerUiScript, swaggerUiStyle } from '../cdn-assets.js';
import { sendHtml } from '../html.js';

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

export const schemaDocsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/openapi.json',
    { schema: { summary: 'OpenAPI schema of every HTTP route (no login needed)', tags: ['schema'] } },
    async () => app.swagger(),
  );
  app.get(
    '/docs',
    { schema: { summary: 'Interactive viewer of the schema (Swagger UI)', tags: ['schema'] } },
    (_req, reply) =>
      sendHtml(reply, 200, swaggerPage, {
        scripts: [assetUrl(swaggerUiScript)],
        styles: [assetUrl(swaggerUiStyle)],
        inlineStyles: true,
      }),
  );
  app.get(
    '/docs/init.js',
    {
      schema: {
        summary: 'Start-up script of the Swagger UI page',
        tags: ['schema'],
        response: { 200: z.string() },
      },
    },
    async (_req, reply) => {
      void reply.header('content-type', 'text/javascript; charset=utf-8');
      return swaggerInit;
    },
  );
  app.get(
    '/redoc',
    { schema: { summary: 'Second viewer of the schema (Redoc)', tags: ['schema'] } },
    (_req, reply) =>
      sendHtml(reply, 200, redocPage, {
        scripts: [assetUrl(redocScript)],
        inlineStyles: true,
        workers: ['blob:'],
      }),
  );
};
