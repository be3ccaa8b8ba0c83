import { DiagnosticsAnswer } from '../diagnostics.js';
import { defineRoute } from '../route.js';

export const getDiagnostics = defineRoute({
  operationId: 'getDiagnostics',
  method: 'GET',
  path: '/api/admin/diagnostics',
  summary:
    'What a bug report needs about this server: versions, Node and platform, home, store, address, health, the last update check, harnesses and counts; never a token, password or secret',
  tags: ['admin'],
  responses: { 200: DiagnosticsAnswer },
});
