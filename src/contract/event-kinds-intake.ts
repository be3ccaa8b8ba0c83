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
  issues_closed: kind(
    'The item completed having changed something: its issues in a forge, Linear or Jira were closed (a merged merge request closes forge issues itself).',
    z.strictObject({ tracker: str, issues: z.array(str) }),
  ),
  issues_left_open: kind(
    'The item ended but its issues in a forge, Linear or Jira stay open: nothing changed, its merge request is not merged, or the tracker refused.',
    z.strictObject({ tracker: str, issues: z.array(str), reason: str }),
  ),
  issue_commented: kind(
    'Jig commented on an issue the item implements: it waits at a gate, stopped for a person, or ended (`about`).',
    z.strictObject({ tracker: str, issue: str, about: str }),
  ),
  issue_comment_failed: kind(
    'A comment on an issue the item implements could not be posted; the item goes on.',
    z.strictObject({ tracker: str, issue: str, about: str, reason: str }),
  ),
};
