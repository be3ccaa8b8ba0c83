import { daysInMonth, utcMinute, weekday } from './calendar.js';
import type { CompiledCron } from './fields.js';

/**
 * How far `nextFireAfter` looks: 400 years. The Gregorian calendar repeats exactly every 400
 * years (146,097 days, a whole number of weeks), so every (month, day, weekday) combination that
 * ever occurs occurs within any 400-year window. Finding nothing in that window therefore proves
 * the expression never fires (`0 0 30 2 *`) rather than guessing; and rare ones such as
 * `0 0 29 2 *` (up to 8 years apart, e.g. 2096 → 2104) or "Feb 29 on a Monday" (up to 40 years)
 * are still found. The search walks months and days, not minutes, so even a never-firing
 * expression costs at most 4,800 months × 31 days of cheap checks.
 */
export const HORIZON_YEARS = 400;

const MINUTE_MS = 60_000;

function checkDate(date: Date): void {
  if (Number.isNaN(date.getTime())) throw new RangeError('cron: invalid Date');
}

/** Whether the UTC minute containing `date` matches (seconds are ignored). */
export function matches(cron: CompiledCron, date: Date): boolean {
  checkDate(date);
  return (
    cron.minute[date.getUTCMinutes()] === true &&
    cron.hour[date.getUTCHours()] === true &&
    cron.day_of_month[date.getUTCDate()] === true &&
    cron.month[date.getUTCMonth() + 1] === true &&
    // Both day fields must match: Jig ANDs them where classic cron ORs.
    cron.day_of_week[date.getUTCDay()] === true
  );
}

/** The first allowed value ≥ v, or -1. */
function nextAllowed(set: readonly boolean[], v: number): number {
  for (let i = v; i < set.length; i++) if (set[i] === true) return i;
  return -1;
}

/**
 * The first whole minute strictly after `after` that matches, or null when none does within
 * HORIZON_YEARS (which means none ever does) or before the end of the Date range.
 */
export function nextFireAfter(cron: CompiledCron, after: Date): Date | null {
  checkDate(after);
  const start = new Date(Math.floor(after.getTime() / MINUTE_MS) * MINUTE_MS + MINUTE_MS);
  if (Number.isNaN(start.getTime())) return null;
  let y = start.getUTCFullYear();
  let mo = start.getUTCMonth() + 1;
  let d = start.getUTCDate();
  let h = start.getUTCHours();
  let mi = start.getUTCMinutes();
  const lastYear = y + HORIZON_YEARS;

  // Each step either answers or moves to the start of a later hour, day, month or year.
  while (y <= lastYear) {
    const m = nextAllowed(cron.month, mo);
    if (m === -1) {
      y++;
      mo = 1;
      d = 1;
      h = 0;
      mi = 0;
      continue;
    }
    if (m !== mo) {
      mo = m;
      d = 1;
      h = 0;
      mi = 0;
    }
    const dim = daysInMonth(y, mo);
    let day = d;
    while (day <= dim && !(cron.day_of_month[day] === true && cron.day_of_week[weekday(y, mo, day)] === true))
      day++;
    if (day > dim) {
      mo++;
      d = 1;
      h = 0;
      mi = 0;
      if (mo > 12) {
        y++;
        mo = 1;
      }
      continue;
    }
    if (day !== d) {
      d = day;
      h = 0;
      mi = 0;
    }
    const hour = nextAllowed(cron.hour, h);
    if (hour === -1) {
      d++;
      h = 0;
      mi = 0;
      if (d > dim) {
        d = 1;
        mo++;
        if (mo > 12) {
          y++;
          mo = 1;
        }
      }
      continue;
    }
    if (hour !== h) {
      h = hour;
      mi = 0;
    }
    const minute = nextAllowed(cron.minute, mi);
    if (minute === -1) {
      h++;
      mi = 0;
      // An hour past 23 finds no allowed hour above, which moves on to the next day.
      continue;
    }
    const found = utcMinute(y, mo, d, h, minute);
    return Number.isNaN(found.getTime()) ? null : found;
  }
  return null;
}
