import { z } from 'zod';
import { defineRoute } from '../route.js';

/** The OpenAPI document; its shape is OpenAPI's own, so it has no schema here. */
export const openApiDocument = defineRoute({
  method: 'GET',
  path: '/openapi.json',
  summary: 'OpenAPI schema of every HTTP route (no login needed)',
  tags: ['schema'],
});

export const swaggerViewer = defineRoute({
  method: 'GET',
  path: '/docs',
  summary: 'Interactive viewer of the schema (Swagger UI)',
  tags: ['schema'],
});

export const swaggerInitScript = defineRoute({
  method: 'GET',
  path: '/docs/init.js',
  summary: 'Start-up script of the Swagger UI page',
  tags: ['schema'],
  responses: { 200: z.string() },
});

export const redocViewer = defineRoute({
  method: 'GET',
  path: '/redoc',
  summary: 'Second viewer of the schema (Redoc)',
  tags: ['schema'],
});
