import { describe, expect, it } from 'vitest';
import type { CompiledCron } from './fields.js';
import { matches, nextFireAfter } from './next-fire.js';
import { parseCron } from './parse.js';

function cron(text: string): CompiledCron {
  const r = parseCron(text);
  if (!r.ok) throw new Error(r.error.message);
  return r.cron;
}

const at = (iso: string): Date => new Date(iso);
const next = (text: string, after: string): string | null =>
  nextFireAfter(cron(text), at(after))?.toISOString() ?? null;

describe('matches', () => {
  it('reads the UTC fields of the minute and ignores seconds', () => {
    const c = cron('30 9 * * 1-5');
    expect(matches(c, at('2025-01-06T09:30:00Z'))).toBe(true); // Monday
    expect(matches(c, at('2025-01-06T09:30:59.999Z'))).toBe(true);
    expect(matches(c, at('2025-01-06T09:31:00Z'))).toBe(false);
    expect(matches(c, at('2025-01-04T09:30:00Z'))).toBe(false); // Saturday
    // 09:30 UTC is 10:30 in Paris in winter; the instant is what counts, not a local clock.
    expect(matches(c, at('2025-01-06T10:30:00+01:00'))).toBe(true);
  });

  it('needs both day of month and day of week (AND, not classic OR)', () => {
    const friday13 = cron('0 0 13 * 5');
    expect(matches(friday13, at('2025-06-13T00:00:00Z'))).toBe(true); // Friday the 13th
    expect(matches(friday13, at('2025-01-13T00:00:00Z'))).toBe(false); // a Monday the 13th
    expect(matches(friday13, at('2025-01-03T00:00:00Z'))).toBe(false); // a Friday the 3rd
  });

  it('fires on Sunday for day 7', () => {
    expect(matches(cron('0 12 * * 7'), at('2025-01-05T12:00:00Z'))).toBe(true);
    expect(matches(cron('0 12 * * 5-7'), at('2025-01-05T12:00:00Z'))).toBe(true);
  });

  it('refuses an invalid Date', () => {
    expect(() => matches(cron('* * * * *'), new Date(NaN))).toThrow(RangeError);
  });
});

describe('nextFireAfter', () => {
  it('answers the first whole minute strictly after', () => {
    expect(next('* * * * *', '2025-01-01T10:00:00Z')).toBe('2025-01-01T10:01:00.000Z');
    expect(next('* * * * *', '2025-01-01T10:00:30Z')).toBe('2025-01-01T10:01:00.000Z');
    expect(next('* * * * *', '2025-01-01T09:59:59.999Z')).toBe('2025-01-01T10:00:00.000Z');
    expect(next('0 10 * * *', '2025-01-01T10:00:00Z')).toBe('2025-01-02T10:00:00.000Z');
  });

  it('carries over hours, days, months and years', () => {
    expect(next('15 * * * *', '2025-01-01T10:20:00Z')).toBe('2025-01-01T11:15:00.000Z');
    expect(next('15 3 * * *', '2025-01-31T10:20:00Z')).toBe('2025-02-01T03:15:00.000Z');
    expect(next('0 0 1 * *', '2025-12-15T00:00:00Z')).toBe('2026-01-01T00:00:00.000Z');
    expect(next('0 0 31 * *', '2025-04-01T00:00:00Z')).toBe('2025-05-31T00:00:00.000Z');
    expect(next('59 23 31 12 *', '2025-12-31T23:59:00Z')).toBe('2026-12-31T23:59:00.000Z');
    expect(next('*/20 */6 * * *', '2025-03-01T23:50:00Z')).toBe('2025-03-02T00:00:00.000Z');
  });

  it('resets lower fields when a higher one moves', () => {
    // In May, the first allowed minute of the first allowed hour, not the current ones.
    expect(next('5,50 8,20 * 5 *', '2025-04-30T21:55:00Z')).toBe('2025-05-01T08:05:00.000Z');
    expect(next('5,50 8,20 10 * *', '2025-04-09T21:55:00Z')).toBe('2025-04-10T08:05:00.000Z');
  });

  it('ANDs the day fields', () => {
    expect(next('0 0 13 * 5', '2025-01-01T00:00:00Z')).toBe('2025-06-13T00:00:00.000Z');
  });

  it('fires on Sunday for day 7', () => {
    expect(next('0 12 * * 7', '2025-01-01T00:00:00Z')).toBe('2025-01-05T12:00:00.000Z');
  });

  it('finds Feb 29 across the skipped leap year of 2100', () => {
    expect(next('0 0 29 2 *', '2024-03-01T00:00:00Z')).toBe('2028-02-29T00:00:00.000Z');
    expect(next('0 0 29 2 *', '2096-03-01T00:00:00Z')).toBe('2104-02-29T00:00:00.000Z');
    // A Monday Feb 29 is 40 years away from 2073.
    expect(next('0 0 29 2 1', '2073-01-01T00:00:00Z')).toBe('2112-02-29T00:00:00.000Z');
  });

  it('answers null for dates that never exist', () => {
    expect(next('0 0 31 2 *', '2025-01-01T00:00:00Z')).toBeNull();
    expect(next('0 0 30 2 *', '2025-01-01T00:00:00Z')).toBeNull();
    expect(next('* * 30,31 2 *', '2025-01-01T00:00:00Z')).toBeNull();
    expect(next('0 0 31 4,6,9,11 *', '2025-01-01T00:00:00Z')).toBeNull();
  });

  it('works in early years, which Date.UTC would map to the 1900s', () => {
    const after = new Date(0);
    after.setUTCFullYear(50, 5, 1);
    const found = nextFireAfter(cron('0 0 1 1 *'), after);
    expect(found?.getUTCFullYear()).toBe(51);
    expect(found?.getUTCMonth()).toBe(0);
  });

  it('answers null past the end of the Date range and refuses an invalid Date', () => {
    expect(nextFireAfter(cron('* * * * *'), new Date(8.64e15))).toBeNull();
    expect(nextFireAfter(cron('0 0 1 1 *'), new Date(8.64e15 - 86_400_000 * 30))).toBeNull();
    expect(() => nextFireAfter(cron('* * * * *'), new Date(NaN))).toThrow(RangeError);
  });
});
