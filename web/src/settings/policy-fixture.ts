import {
  CAPS,
  LEVELS,
  type CapRow,
  type Cap,
  type Level,
  type PolicyResolved,
  type Sourced,
} from './policy-types.js';

/** A resolved policy for the unit tests: every value set in policy.yaml to a number of its own. */
export function aPolicy(): PolicyResolved {
  let n = 0;
  const v = <T>(value: T): Sourced<T> => ({ value, source: 'policy' });
  const next = () => v<number | null>(++n);
  const row = (): CapRow => ({ default: next(), maximum: next(), below: [] });
  const caps = Object.fromEntries(
    LEVELS.map((l) => [l, Object.fromEntries(CAPS.map((c) => [c, row()])) as Record<Cap, CapRow>]),
  ) as Record<Level, Record<Cap, CapRow>>;
  return {
    limits: {
      caps,
      work_item_usd: { ...next(), binding: null },
      daily_usd: next(),
      max_attempts: { default: next(), maximum: next() },
      timeout_minutes: { default: next(), maximum: next() },
    },
    loops: { default: { attempts: next(), wall_clock_s: next() }, entries: [], live: [] },
    escalation: {
      auto_escalate_stuck: v(true),
      auto_escalate_stuck_cap: next(),
      auto_escalate_delay_s: next(),
      auto_review_attempts: next(),
    },
    retries: { rate_limit_retries: next(), forge_cli_timeout_s: next(), forge_poll_s: next() },
    housekeeping: { max_concurrent: next(), archive_after_days: v(null), record_runs: v(false) },
    findings: { loop_severities: v(['critical']) },
    sandbox: { value: null, source: 'default' },
  };
}
