import { describe, expect, it } from 'vitest';
import type { CompiledCron, CronFieldName } from './fields.js';
import { parseCron } from './parse.js';

function compiled(text: string): CompiledCron {
  const r = parseCron(text);
  if (!r.ok) throw new Error(`expected ${JSON.stringify(text)} to parse: ${r.error.message}`);
  return r.cron;
}

function values(text: string, field: CronFieldName): number[] {
  const set = compiled(text)[field];
  return set.flatMap((on, v) => (on ? [v] : []));
}

const range = (a: number, b: number, step = 1): number[] => {
  const out: number[] = [];
  for (let v = a; v <= b; v += step) out.push(v);
  return out;
};

describe('parseCron: forms', () => {
  it.each([
    ['*', range(0, 59)],
    ['7', [7]],
    ['0', [0]],
    ['59', [59]],
    ['07', [7]],
    ['1-5', [1, 2, 3, 4, 5]],
    ['5-5', [5]],
    ['*/15', [0, 15, 30, 45]],
    ['*/1', range(0, 59)],
    ['*/60', [0]],
    ['*/90', [0]],
    ['10-40/10', [10, 20, 30, 40]],
    ['10-45/10', [10, 20, 30, 40]],
    ['5/20', [5, 25, 45]],
    ['58/1', [58, 59]],
    ['59/5', [59]],
    ['1,5,9', [1, 5, 9]],
    ['9,1,5,1', [1, 5, 9]],
    ['1-3,10-40/10,*/30,45/7', [0, 1, 2, 3, 10, 20, 30, 40, 45, 52, 59]],
  ])('minute %s', (field, expected) => {
    expect(values(`${field} * * * *`, 'minute')).toEqual(expected);
  });

  it('covers each field range with *', () => {
    expect(values('* * * * *', 'hour')).toEqual(range(0, 23));
    expect(values('* * * * *', 'day_of_month')).toEqual(range(1, 31));
    expect(values('* * * * *', 'month')).toEqual(range(1, 12));
    expect(values('* * * * *', 'day_of_week')).toEqual(range(0, 6));
  });

  it('steps over all start at the field first value', () => {
    expect(values('* * */10 * *', 'day_of_month')).toEqual([1, 11, 21, 31]);
    expect(values('* * * */5 *', 'month')).toEqual([1, 6, 11]);
    expect(values('* */7 * * *', 'hour')).toEqual([0, 7, 14, 21]);
  });

  it('steps from a start run to the field top', () => {
    expect(values('* * 28/1 * *', 'day_of_month')).toEqual([28, 29, 30, 31]);
    expect(values('* * * 10/1 *', 'month')).toEqual([10, 11, 12]);
    expect(values('* 20/2 * * *', 'hour')).toEqual([20, 22]);
  });

  it('reads day 7 as Sunday, alone, in ranges and in steps', () => {
    expect(values('* * * * 7', 'day_of_week')).toEqual([0]);
    expect(values('* * * * 0', 'day_of_week')).toEqual([0]);
    expect(values('* * * * 0,7', 'day_of_week')).toEqual([0]);
    expect(values('* * * * 5-7', 'day_of_week')).toEqual([0, 5, 6]);
    expect(values('* * * * 0-7', 'day_of_week')).toEqual(range(0, 6));
    // From the field's first (0) by 2 up to its top (7): 0, 2, 4, 6.
    expect(values('* * * * */2', 'day_of_week')).toEqual([0, 2, 4, 6]);
    // 1, 4, 7: Monday, Thursday, Sunday.
    expect(values('* * * * 1/3', 'day_of_week')).toEqual([0, 1, 4]);
    expect(values('* * * * */7', 'day_of_week')).toEqual([0]);
    expect(values('* * * * 6-7/1', 'day_of_week')).toEqual([0, 6]);
  });

  it('compiles arrays indexed by value, day of week folded to 0-6', () => {
    const c = compiled('* * * * *');
    expect(c.minute).toHaveLength(60);
    expect(c.hour).toHaveLength(24);
    expect(c.day_of_month).toHaveLength(32);
    expect(c.day_of_month[0]).toBe(false);
    expect(c.month).toHaveLength(13);
    expect(c.month[0]).toBe(false);
    expect(c.day_of_week).toHaveLength(7);
    expect(Object.isFrozen(c) && Object.isFrozen(c.minute)).toBe(true);
  });

  it('accepts any run of spaces and tabs between fields and ignores surrounding whitespace', () => {
    const expected = compiled('0 9 * * 1-5');
    for (const text of [
      '0\t9 *  *\t \t1-5',
      '  0 9 * * 1-5  ',
      '\t0 9 * * 1-5\n',
      '0 9 * * 1-5\r\n',
      '\n\n0 9 * * 1-5',
    ])
      expect(compiled(text)).toEqual(expected);
  });

  it('reads the spec examples', () => {
    expect(values('*/15 9 1-5 * *', 'minute')).toEqual([0, 15, 30, 45]);
    expect(values('*/15 9 1-5 * *', 'hour')).toEqual([9]);
    expect(values('*/15 9 1-5 * *', 'day_of_month')).toEqual([1, 2, 3, 4, 5]);
  });
});
