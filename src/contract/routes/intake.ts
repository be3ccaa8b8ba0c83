import { ErrorBodySchema } from '../error-body.js';
import { IntakeCheck, IntakeChecksAnswer, IntakeChecksQuery } from '../intake-checks.js';
import { IntakeAnswer } from '../intake-route.js';
import { defineRoute } from '../route.js';

export const getIntake = defineRoute({
  operationId: 'getIntake',
  method: 'GET',
  path: '/api/intake',
  summary: 'The running intake settings, and every schedule with its next firing and problems',
  description:
    'Schedules from intake.yaml (`source: intake`) and 1.x triggers left in policy.yaml ' +
    '(`source: policy.triggers`). `next_fire_at` is null for an entry that never fires or would ' +
    'be skipped now; `problems` says why.',
  tags: ['intake'],
  responses: { 200: IntakeAnswer },
});

export const listIntakeChecks = defineRoute({
  operationId: 'listIntakeChecks',
  method: 'GET',
  path: '/api/intake/checks',
  summary: 'Auto-intake polls, newest first: issues ready, items started, issues skipped and why',
  description:
    'The newest 500 polls are kept. `limit` defaults to 20, 1 to 100 (422 outside, naming ' +
    '`limit`). A skip with `invalid_config` and a null `bead` is a poll that could not run because ' +
    'policy.yaml or repos.yaml did not load.',
  tags: ['intake'],
  query: IntakeChecksQuery,
  responses: { 200: IntakeChecksAnswer, 422: ErrorBodySchema },
});

export const pollIntake = defineRoute({
  operationId: 'pollIntake',
  method: 'POST',
  path: '/api/intake/poll',
  summary: 'Run one auto-intake poll now and answer the check it recorded',
  description:
    'The poll the timer runs every `interval_s`, now: ready issues filed and started by the rules, ' +
    'the rest skipped with why. 409 `intake_disabled` while intake.yaml says `enabled: false`.',
  tags: ['intake'],
  responses: { 200: IntakeCheck, 409: ErrorBodySchema },
});
