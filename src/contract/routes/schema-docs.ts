import { z } from 'zod';
import { defineRoute } from '../route.js';

/** The OpenAPI document; its shape is OpenAPI's own, so it has no schema here. */
export const openApiDocument = defineRoute({
  hide: true,
  method: 'GET',
  path: '/openapi.json',
  summary: 'OpenAPI schema of every HTTP route (no login needed)',
  tags: ['schema'],
});

export const swaggerViewer = defineRoute({
  hide: true,
  method: 'GET',
  path: '/docs',
  summary: 'Interactive viewer of the schema (Swagger UI)',
  tags: ['schema'],
});

export const swaggerInitScript = defineRoute({
  hide: true,
  method: 'GET',
  path: '/docs/init.js',
  summary: 'Start-up script of the Swagger UI page',
  tags: ['schema'],
  responses: { 200: z.string() },
});

export const redocViewer = defineRoute({
  hide: true,
  method: 'GET',
  path: '/redoc',
  summary: 'Second viewer of the schema (Redoc)',
  tags: ['schema'],
});

export const redocInitScript = defineRoute({
  hide: true,
  method: 'GET',
  path: '/redoc/init.js',
  summary: 'Start-up script of the Redoc page',
  tags: ['schema'],
  responses: { 200: z.string() },
});

export const viewerFile = defineRoute({
  hide: true,
  method: 'GET',
  path: '/docs/vendor/:pkg/:file',
  summary: "The viewers' pinned files, served by Jig when the CDN cannot be reached",
  tags: ['schema'],
  params: z.object({ pkg: z.string(), file: z.string() }),
});
