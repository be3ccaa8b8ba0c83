import { CAPS, LEVELS, type PolicyResolved, type Sourced } from './policy-types.js';

/*
 * Settings › Policy as data: every single-value field of the page, with the section it sits in,
 * the `set_value` op it sends (scope and dotted key, as docs/drafts.md lists them) and where its
 * value is read in the resolved answer. One component draws any of them (policy-parts.tsx); the
 * caps grid, the fix loops and the finding severities are tables of their own.
 */

export type PolicySection = 'budget' | 'escalation' | 'housekeeping';

interface Common {
  section: PolicySection;
  label: string;
  /** The `set_value` scope (`limits`, `escalation`…). */
  scope: string;
  /** The dotted key the op sets; the field's problems are the ones at it. */
  key: string;
}

export type PolicyField =
  | (Common & {
      kind: 'number';
      read: (r: PolicyResolved) => Sourced<number | null>;
      /** What an unset value shows ("never"); "not set" when left out. */
      unset?: string;
    })
  | (Common & { kind: 'check'; read: (r: PolicyResolved) => Sourced<boolean> });

const num = (
  section: PolicySection,
  label: string,
  scope: string,
  key: string,
  read: (r: PolicyResolved) => Sourced<number | null>,
  unset?: string,
): PolicyField => ({ kind: 'number', section, label, scope, key, read, unset });

export const POLICY_FIELDS: readonly PolicyField[] = [
  num('budget', 'Budget per work item ($)', 'limits', 'budget.work_item_usd', (r) => r.limits.work_item_usd),
  num('budget', 'Budget per day ($)', 'limits', 'budget.daily_usd', (r) => r.limits.daily_usd),
  num(
    'budget',
    'Attempts per node (default)',
    'limits',
    'defaults.max_attempts',
    (r) => r.limits.max_attempts.default,
  ),
  num(
    'budget',
    'Attempts per node (maximum)',
    'limits',
    'maxima.max_attempts',
    (r) => r.limits.max_attempts.maximum,
  ),
  num(
    'budget',
    'Node timeout, min (default)',
    'limits',
    'defaults.timeout_minutes',
    (r) => r.limits.timeout_minutes.default,
  ),
  num(
    'budget',
    'Node timeout, min (maximum)',
    'limits',
    'maxima.timeout_minutes',
    (r) => r.limits.timeout_minutes.maximum,
  ),
  {
    kind: 'check',
    section: 'escalation',
    label: 'Escalate stuck items automatically',
    scope: 'escalation',
    key: 'auto_escalate_stuck',
    read: (r) => r.escalation.auto_escalate_stuck,
  },
  num(
    'escalation',
    'Automatic escalations per item',
    'escalation',
    'auto_escalate_stuck_cap',
    (r) => r.escalation.auto_escalate_stuck_cap,
  ),
  num(
    'escalation',
    'Escalation delay (s)',
    'escalation',
    'auto_escalate_delay_s',
    (r) => r.escalation.auto_escalate_delay_s,
  ),
  num(
    'escalation',
    'Automatic review attempts',
    'escalation',
    'auto_review_attempts',
    (r) => r.escalation.auto_review_attempts,
  ),
  num(
    'escalation',
    'Rate-limit retries',
    'retries',
    'rate_limit_retries',
    (r) => r.retries.rate_limit_retries,
  ),
  num(
    'escalation',
    'Forge CLI timeout (s)',
    'retries',
    'forge_cli_timeout_s',
    (r) => r.retries.forge_cli_timeout_s,
  ),
  num('escalation', 'Forge poll interval (s)', 'retries', 'forge_poll_s', (r) => r.retries.forge_poll_s),
  num(
    'housekeeping',
    'Items running at once',
    'housekeeping',
    'max_concurrent',
    (r) => r.housekeeping.max_concurrent,
  ),
  num(
    'housekeeping',
    'Archive ended items after (days)',
    'housekeeping',
    'archive.after_days',
    (r) => r.housekeeping.archive_after_days,
    'never',
  ),
  {
    kind: 'check',
    section: 'housekeeping',
    label: 'Keep a recording of each ended item (for chain test replays)',
    scope: 'housekeeping',
    key: 'record_runs',
    read: (r) => r.housekeeping.record_runs,
  },
];

export const fieldsOf = (section: PolicySection): readonly PolicyField[] =>
  POLICY_FIELDS.filter((f) => f.section === section);

/** The finding severities policy.yaml takes, most severe first. */
export const SEVERITIES = ['critical', 'important', 'minor'] as const;

/** The severities that start a fix loop after ticking one on or off, in the file's order. */
export function toggleSeverity(now: readonly string[], sev: string, on: boolean): string[] {
  return on ? SEVERITIES.filter((x) => x === sev || now.includes(x)) : now.filter((x) => x !== sev);
}

/** The caps grid's keys: a default and a maximum per level and cap. */
export const capKey = (bound: 'defaults' | 'maxima', level: string, cap: string) =>
  `${bound}.${level}.${cap}`;

/** Every key a field of the page shows problems for: a problem at any other is listed on its own. */
export function fieldKeys(r: PolicyResolved): string[] {
  return [
    ...LEVELS.flatMap((l) => CAPS.flatMap((c) => [capKey('defaults', l, c), capKey('maxima', l, c)])),
    ...POLICY_FIELDS.map((f) => f.key),
    'default.attempts',
    'default.wall_clock_s',
    ...r.loops.entries.map((e) => `loops.${e.key}`),
    'findings.loop_severities',
    'sandbox',
  ];
}
