import type { IntakeAnswer } from '../contract/intake-route.js';
import { getIntake as intake } from '../contract/routes/intake.js';
import type { JigClient } from './http.js';

/** `GET /api/intake`: the running intake settings and every schedule, with next firing and problems. */
export const getIntake = (c: JigClient): Promise<IntakeAnswer> => c.call(intake);
