/** The five fields of Jig's cron dialect, in the order they are written (spec: Cron syntax). */

export type CronFieldName = 'minute' | 'hour' | 'day_of_month' | 'month' | 'day_of_week';

export interface CronField {
  readonly name: CronFieldName;
  /** The lowest and highest value one may write; `*` and steps without an end span them. */
  readonly min: number;
  readonly max: number;
}

export const CRON_FIELDS: readonly CronField[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day_of_month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12 },
  // 0 and 7 are both Sunday; 7 is folded to 0 when compiled.
  { name: 'day_of_week', min: 0, max: 7 },
];

/**
 * A parsed expression: for each field, `allowed[v]` says whether value v matches. Day of week is
 * normalized to 0-6 (Sunday 0), so it has 7 entries. Every field allows at least one value.
 * The arrays are frozen, and an expression and its compiled form can be shared freely.
 */
export interface CompiledCron {
  readonly minute: readonly boolean[];
  readonly hour: readonly boolean[];
  readonly day_of_month: readonly boolean[];
  readonly month: readonly boolean[];
  readonly day_of_week: readonly boolean[];
}
