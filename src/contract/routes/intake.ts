import { IntakeAnswer } from '../intake-route.js';
import { defineRoute } from '../route.js';

export const getIntake = defineRoute({
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
