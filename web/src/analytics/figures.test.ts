import { describe, expect, it } from 'vitest';
import { count, dayBefore, duration, percent, usd } from './figures.js';

describe('analytics figures', () => {
  it('formats dollars, counts, durations and rates', () => {
    expect(usd(0)).toBe('$0.00');
    expect(usd(0.01234)).toBe('$0.0123');
    expect(usd(12.345)).toBe('$12.35');
    expect(count(999)).toBe('999');
    expect(count(12_345)).toBe('12.3k');
    expect(count(2_500_000)).toBe('2.5M');
    expect(duration(42)).toBe('42 s');
    expect(duration(600)).toBe('10 min');
    expect(duration(9000)).toBe('2.5 h');
    expect(percent(null)).toBe('—');
    expect(percent(0.5)).toBe('50%');
  });

  it('counts days back in UTC', () => {
    expect(dayBefore(new Date('2026-11-25T02:00:00Z'), 30)).toBe('2026-10-26');
  });
});
