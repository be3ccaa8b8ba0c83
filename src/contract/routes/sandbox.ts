import { SandboxAnswer } from '../sandbox-route.js';
import { defineRoute } from '../route.js';

export const getSandbox = defineRoute({
  operationId: 'getSandbox',
  method: 'GET',
  path: '/api/sandbox',
  summary: 'Which sandbox kinds work on this machine, the best of them, and the instance default',
  tags: ['settings'],
  responses: { 200: SandboxAnswer },
});
