import { z } from 'zod';
import { kind, num, str } from './event-kind-parts.js';

/** An issue as the events name it. */
export const IssueRef = z.strictObject({ tracker: str, id: str, priority: num.nullable() });

/** The event kinds of the tracker issues an item implements, part of the one catalogue (event-kinds.ts). */
export const intakeEventKinds = {
  beads_closed: kind(
    'The item completed having changed something: the beads it implements were closed with `bd close`.',
    z.strictObject({ beads: z.array(str) }),
  ),
  beads_left_open: kind(
    'The item ended but its beads stay open: nothing changed on its branch, or `bd` could not close them.',
    z.strictObject({ beads: z.array(str), reason: str }),
  ),
};
