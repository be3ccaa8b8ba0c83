import { z } from 'zod';
import { kind, num, str } from './event-kind-parts.js';

/** The event kinds of escalation turns, part of the one catalogue (event-kinds.ts). */
export const escalationEventKinds = {
  escalation_message: kind(
    'An escalation turn was asked for (a person, or Jig for a stuck item).',
    z.strictObject({
      message: str,
      harness: str,
      continues: str.optional().describe('the earlier turn whose CLI session this one goes on in'),
    }),
  ),
  escalation_finished: kind(
    'The escalation agent ended.',
    z.strictObject({
      session: str,
      status: str,
      concerns: str.optional(),
      suggested_action: str.optional(),
    }),
  ),
  work_item_auto_escalate_capped: kind(
    'A stuck item would get an automatic escalation turn, but the cap is used up.',
    z.strictObject({ cap: num }),
  ),
  work_item_auto_escalate_skipped: kind(
    'A stuck item gets no automatic escalation turn: the node it stopped at turns it off (node override `auto_escalate_stuck: false`).',
    z.strictObject({ node: str }),
  ),
};
