import { z } from 'zod';
import { bool, kind, nullableStr, num, str } from './event-kind-parts.js';

/** Where an item's merge request stands after a forge task (mr_opened, mr_updated). */
const mrPayload = z.strictObject({
  repo: str,
  member: str.optional(),
  number: num,
  url: str,
  state: z.enum(['open', 'closed', 'merged']),
  draft: bool,
  task: str,
});

/** The event kinds of an item's merge requests and forge waits, part of the one catalogue (event-kinds.ts). */
export const forgeEventKinds = {
  mr_opened: kind(
    "A forge task opened the item's merge request (or found the one already open from its branch).",
    mrPayload,
  ),
  mr_updated: kind(
    "A forge task pushed to the item's merge request or changed it (description, ready for review).",
    mrPayload,
  ),
  mr_closed: kind(
    "The item's merge request was closed on the forge without being merged; the item stops (mr_closed).",
    z.strictObject({ repo: str, number: num, url: str }),
  ),
  mr_reopened: kind(
    "A person reopened the item's closed merge request on the forge (POST …/reopen-mr); the item is retried.",
    z.strictObject({ repo: str, number: num, url: str }),
  ),
  mr_merged: kind(
    "The item's merge request was merged on the forge (by mr.merge, or by someone on the forge).",
    z.strictObject({ repo: str, number: num, url: str, merge_sha: nullableStr }),
  ),
  external_wait_started: kind(
    'A forge wait began: the item waits, holding no run slot, and is polled until the wait ends.',
    z.strictObject({
      task: str,
      target: str,
      repo: str,
      member: str.optional(),
      number: num,
      url: str,
      session: str,
      next_at: str,
      interval_s: num,
      max_interval_s: num,
    }),
  ),
  external_wait_observed: kind(
    'A poll of a forge wait saw something new (pending checks, an error reaching the forge).',
    z.strictObject({ task: str, target: str, state: str, detail: str, next_at: str }),
  ),
  external_wait_ended: kind(
    'A forge wait ended: passed or failed (the walk goes on), closed, refused, or timed out (the item stops).',
    z.strictObject({
      task: str,
      target: str,
      outcome: z.enum(['passed', 'failed', 'closed', 'refused', 'timed_out', 'paused', 'cancelled']),
      detail: str,
      session: str,
      findings: num,
    }),
  ),
  ci_not_configured: kind(
    'A CI wait passed without waiting: the repository says it has no CI (repos.yaml ci_checks: false).',
    z.strictObject({ task: str, repo: str }),
  ),
  automated_review_not_configured: kind(
    'An automated-review wait passed: repos.yaml names no review bot or check, and no comment asks for changes.',
    z.strictObject({ task: str, repo: str }),
  ),
  mr_labels_set: kind(
    "The labels of the item's merge request were set (by a person, or its agent through the worker verb).",
    z.strictObject({ repo: str, number: num, labels: z.array(str) }),
  ),
} as const;
