import { z } from 'zod';
import { ApplyAnswer, RestartAnswer } from '../apply.js';
import { ErrorBodySchema } from '../error-body.js';
import { ReloadAnswer } from '../reload.js';
import { defineRoute } from '../route.js';

/** A reload that refused a file still answers what loaded, with the refusal's detail and code. */
export const ReloadRefused = ReloadAnswer.extend({ detail: z.string(), code: z.literal('config_refused') });
// A 422 is also what a body the parser refuses gets (nested too deep), before the route runs: the
// schema must let that answer through too, or serialising it fails into a 500.
export const ReloadUnprocessable = z.union([ReloadRefused, ErrorBodySchema]);

/** Both reload paths (this one and `/api/templates/reload`) take and answer the same. */
export const reloadParts = {
  summary: 'Reread library, chains, policy and intake; answer what loaded and what was refused',
  tags: ['config'],
  responses: { 200: ReloadAnswer, 422: ReloadUnprocessable },
} as const;

export const applyReload = defineRoute({
  operationId: 'applyReload',
  method: 'POST',
  path: '/api/apply/reload',
  ...reloadParts,
});

export const getApply = defineRoute({
  operationId: 'getApply',
  method: 'GET',
  path: '/api/apply',
  summary: 'What is saved on disk but not running yet: changed config files, and whether a restart is needed',
  tags: ['config'],
  responses: { 200: ApplyAnswer },
});

export const restartServer = defineRoute({
  operationId: 'restartServer',
  method: 'POST',
  path: '/api/apply/restart',
  summary:
    'Restart a server a service manager started: answers 202, stops cleanly and exits non-zero so the manager starts it again',
  tags: ['config'],
  responses: { 202: RestartAnswer, 409: ErrorBodySchema },
});
