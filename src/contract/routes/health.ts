import { defineRoute } from '../route.js';
import { HealthAnswer } from '../health.js';

export const getHealth = defineRoute({
  operationId: 'getHealth',
  method: 'GET',
  path: '/api/health',
  summary: 'Server status (stable route; no login needed)',
  tags: ['stable'],
  responses: { 200: HealthAnswer },
});
