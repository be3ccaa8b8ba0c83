/** Proleptic Gregorian calendar arithmetic in UTC, without allocating Dates in the hot loop. */

export function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** `month` is 1-12. */
export function daysInMonth(y: number, month: number): number {
  return month === 2 && isLeapYear(y) ? 29 : (DAYS_IN_MONTH[month - 1] ?? 31);
}

const SAKAMOTO = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4];

/** Day of week (0 = Sunday) of a date; `month` is 1-12. Sakamoto's method, valid for any year ≥ 1. */
export function weekday(y: number, month: number, day: number): number {
  const yy = month < 3 ? y - 1 : y;
  const w =
    yy + Math.floor(yy / 4) - Math.floor(yy / 100) + Math.floor(yy / 400) + (SAKAMOTO[month - 1] ?? 0) + day;
  return ((w % 7) + 7) % 7;
}

/**
 * The instant of a UTC calendar minute. `Date.UTC` maps years 0-99 onto 1900-1999, so the year
 * is set separately to keep early years exact.
 */
export function utcMinute(y: number, month: number, day: number, hour: number, minute: number): Date {
  const d = new Date(0);
  d.setUTCFullYear(y, month - 1, day);
  d.setUTCHours(hour, minute, 0, 0);
  return d;
}
