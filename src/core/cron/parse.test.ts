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

interface Expected {
  kind: 'unreadable' | 'out_of_range';
  field: CronFieldName | null;
  text: string;
  offset: number;
  message: string;
}

function errorOf(text: string): Expected {
  const r = parseCron(text);
  if (r.ok) throw new Error(`expected ${JSON.stringify(text)} to be refused`);
  return { ...r.error };
}

describe('parseCron: out-of-range errors', () => {
  it.each<[string, Expected]>([
    [
      '60 * * * *',
      { kind: 'out_of_range', field: 'minute', text: '60', offset: 0, message: 'minute: 60 is outside 0-59' },
    ],
    [
      '* 24 * * *',
      { kind: 'out_of_range', field: 'hour', text: '24', offset: 2, message: 'hour: 24 is outside 0-23' },
    ],
    [
      '* * 0 * *',
      {
        kind: 'out_of_range',
        field: 'day_of_month',
        text: '0',
        offset: 4,
        message: 'day_of_month: 0 is outside 1-31',
      },
    ],
    [
      '* * 32 * *',
      {
        kind: 'out_of_range',
        field: 'day_of_month',
        text: '32',
        offset: 4,
        message: 'day_of_month: 32 is outside 1-31',
      },
    ],
    [
      '* * * 0 *',
      { kind: 'out_of_range', field: 'month', text: '0', offset: 6, message: 'month: 0 is outside 1-12' },
    ],
    [
      '* * * 13 *',
      { kind: 'out_of_range', field: 'month', text: '13', offset: 6, message: 'month: 13 is outside 1-12' },
    ],
    [
      '* * * * 8',
      {
        kind: 'out_of_range',
        field: 'day_of_week',
        text: '8',
        offset: 8,
        message: 'day_of_week: 8 is outside 0-7',
      },
    ],
    [
      '1-60 * * * *',
      { kind: 'out_of_range', field: 'minute', text: '60', offset: 2, message: 'minute: 60 is outside 0-59' },
    ],
    [
      '70/5 * * * *',
      { kind: 'out_of_range', field: 'minute', text: '70', offset: 0, message: 'minute: 70 is outside 0-59' },
    ],
    [
      '99999999999999999999999 * * * *',
      {
        kind: 'out_of_range',
        field: 'minute',
        text: '99999999999999999999999',
        offset: 0,
        message: 'minute: 99999999999999999999999 is outside 0-59',
      },
    ],
    [
      '* 5-1 * * *',
      {
        kind: 'out_of_range',
        field: 'hour',
        text: '5-1',
        offset: 2,
        message: 'hour: range 5-1 runs backwards',
      },
    ],
    [
      '* 1,05-01/2 * * *',
      {
        kind: 'out_of_range',
        field: 'hour',
        text: '05-01',
        offset: 4,
        message: 'hour: range 05-01 runs backwards',
      },
    ],
    [
      '*/0 * * * *',
      {
        kind: 'out_of_range',
        field: 'minute',
        text: '0',
        offset: 2,
        message: 'minute: step 0 is not allowed',
      },
    ],
    [
      '1-5/00 * * * *',
      {
        kind: 'out_of_range',
        field: 'minute',
        text: '00',
        offset: 4,
        message: 'minute: step 00 is not allowed',
      },
    ],
    [
      '* * * 3/0 *',
      { kind: 'out_of_range', field: 'month', text: '0', offset: 8, message: 'month: step 0 is not allowed' },
    ],
    [
      '* * * * ٣',
      {
        kind: 'out_of_range',
        field: 'day_of_week',
        text: '٣',
        offset: 8,
        message: 'day_of_week: ٣ uses a digit other than 0-9',
      },
    ],
    [
      '* １２ * * *',
      {
        kind: 'out_of_range',
        field: 'hour',
        text: '１２',
        offset: 2,
        message: 'hour: １２ uses a digit other than 0-9',
      },
    ],
    [
      '1３ * * * *',
      {
        kind: 'out_of_range',
        field: 'minute',
        text: '1３',
        offset: 0,
        message: 'minute: 1３ uses a digit other than 0-9',
      },
    ],
    [
      '*/５ * * * *',
      {
        kind: 'out_of_range',
        field: 'minute',
        text: '５',
        offset: 2,
        message: 'minute: ５ uses a digit other than 0-9',
      },
    ],
    [
      '* * 1-३ * *',
      {
        kind: 'out_of_range',
        field: 'day_of_month',
        text: '३',
        offset: 6,
        message: 'day_of_month: ३ uses a digit other than 0-9',
      },
    ],
    // Offsets count from the text as given, leading whitespace included.
    [
      '  \t60 * * * *',
      { kind: 'out_of_range', field: 'minute', text: '60', offset: 3, message: 'minute: 60 is outside 0-59' },
    ],
    // The first bad value in reading order is the one reported.
    [
      '61 25 * * *',
      { kind: 'out_of_range', field: 'minute', text: '61', offset: 0, message: 'minute: 61 is outside 0-59' },
    ],
    [
      '1,5-70 * * * *',
      { kind: 'out_of_range', field: 'minute', text: '70', offset: 4, message: 'minute: 70 is outside 0-59' },
    ],
  ])('%s', (text, expected) => {
    expect(errorOf(text)).toEqual(expected);
  });
});

describe('parseCron: unreadable errors', () => {
  it.each<[string, Expected]>([
    ['', { kind: 'unreadable', field: null, text: '', offset: 0, message: 'expected 5 fields, got 0' }],
    [' \t ', { kind: 'unreadable', field: null, text: '', offset: 0, message: 'expected 5 fields, got 0' }],
    [
      '* * * *',
      { kind: 'unreadable', field: null, text: '* * * *', offset: 0, message: 'expected 5 fields, got 4' },
    ],
    [
      ' 0 0 * *',
      { kind: 'unreadable', field: null, text: '0 0 * *', offset: 1, message: 'expected 5 fields, got 4' },
    ],
    [
      '* * * * * *',
      { kind: 'unreadable', field: null, text: '*', offset: 10, message: 'expected 5 fields, got 6' },
    ],
    [
      '0 0 * * * 2025 x ',
      { kind: 'unreadable', field: null, text: '2025 x', offset: 10, message: 'expected 5 fields, got 7' },
    ],
    [
      'every minute',
      {
        kind: 'unreadable',
        field: null,
        text: 'every minute',
        offset: 0,
        message: 'expected 5 fields, got 2',
      },
    ],
    [
      '@daily',
      {
        kind: 'unreadable',
        field: null,
        text: '@daily',
        offset: 0,
        message: 'expected 5 fields, got 1; shortcuts such as @daily are not read',
      },
    ],
    [
      '0 0\u00a0* * *',
      {
        kind: 'unreadable',
        field: null,
        text: '0 0\u00a0* * *',
        offset: 0,
        message: 'expected 5 fields, got 4; fields are separated by spaces or tabs, and U+00A0 is neither',
      },
    ],
    [
      '0 0\n* * *',
      {
        kind: 'unreadable',
        field: null,
        text: '0 0\n* * *',
        offset: 0,
        message: 'expected 5 fields, got 4; fields are separated by spaces or tabs, and U+000A is neither',
      },
    ],
    [
      '* * * JAN *',
      {
        kind: 'unreadable',
        field: 'month',
        text: 'JAN',
        offset: 6,
        message: 'month: names such as JAN are not read; use 1-12',
      },
    ],
    [
      '* * * jan-mar *',
      {
        kind: 'unreadable',
        field: 'month',
        text: 'jan',
        offset: 6,
        message: 'month: names such as jan are not read; use 1-12',
      },
    ],
    [
      '* * * 1-December *',
      {
        kind: 'unreadable',
        field: 'month',
        text: 'December',
        offset: 8,
        message: 'month: names such as December are not read; use 1-12',
      },
    ],
    [
      '* * * * MON',
      {
        kind: 'unreadable',
        field: 'day_of_week',
        text: 'MON',
        offset: 8,
        message: 'day_of_week: names such as MON are not read; use 0-7 (0 and 7 are Sunday)',
      },
    ],
    [
      '* * * * 1,Sunday',
      {
        kind: 'unreadable',
        field: 'day_of_week',
        text: 'Sunday',
        offset: 10,
        message: 'day_of_week: names such as Sunday are not read; use 0-7 (0 and 7 are Sunday)',
      },
    ],
    // A day name in the month field is just a word there.
    [
      '* * * MON *',
      { kind: 'unreadable', field: 'month', text: 'MON', offset: 6, message: 'month: "MON" is not a number' },
    ],
    [
      '* * L * *',
      {
        kind: 'unreadable',
        field: 'day_of_month',
        text: 'L',
        offset: 4,
        message: 'day_of_month: "L" is not a number',
      },
    ],
    [
      '5L * * * *',
      { kind: 'unreadable', field: 'minute', text: 'L', offset: 1, message: 'minute: "L" is not a number' },
    ],
    [
      '*/five * * * *',
      {
        kind: 'unreadable',
        field: 'minute',
        text: 'five',
        offset: 2,
        message: 'minute: "five" is not a number',
      },
    ],
    [
      '1-x * * * *',
      { kind: 'unreadable', field: 'minute', text: 'x', offset: 2, message: 'minute: "x" is not a number' },
    ],
    [
      '* * ? * *',
      {
        kind: 'unreadable',
        field: 'day_of_month',
        text: '?',
        offset: 4,
        message: 'day_of_month: unexpected "?"',
      },
    ],
    [
      '* * * * 5#2',
      {
        kind: 'unreadable',
        field: 'day_of_week',
        text: '#',
        offset: 9,
        message: 'day_of_week: unexpected "#" after "5"',
      },
    ],
    [
      '* * * * 1\u00a0',
      {
        kind: 'unreadable',
        field: 'day_of_week',
        text: '\u00a0',
        offset: 9,
        message: 'day_of_week: unexpected U+00A0 after "1"',
      },
    ],
    [
      '-5 * * * *',
      {
        kind: 'unreadable',
        field: 'minute',
        text: '-',
        offset: 0,
        message: 'minute: "-" needs a number before it',
      },
    ],
    [
      '/5 * * * *',
      {
        kind: 'unreadable',
        field: 'minute',
        text: '/',
        offset: 0,
        message: 'minute: "/" needs * or a number before it',
      },
    ],
    [
      '1- * * * *',
      {
        kind: 'unreadable',
        field: 'minute',
        text: '-',
        offset: 1,
        message: 'minute: "-" needs a number after it',
      },
    ],
    [
      '*/ * * * *',
      {
        kind: 'unreadable',
        field: 'minute',
        text: '/',
        offset: 1,
        message: 'minute: "/" needs a number after it',
      },
    ],
    [
      '1-/2 * * * *',
      {
        kind: 'unreadable',
        field: 'minute',
        text: '-',
        offset: 1,
        message: 'minute: "-" needs a number after it',
      },
    ],
    [
      '*-5 * * * *',
      {
        kind: 'unreadable',
        field: 'minute',
        text: '-',
        offset: 1,
        message: 'minute: unexpected "-" after "*"',
      },
    ],
    [
      '*5 * * * *',
      {
        kind: 'unreadable',
        field: 'minute',
        text: '5',
        offset: 1,
        message: 'minute: unexpected "5" after "*"',
      },
    ],
    [
      '1-2-3 * * * *',
      {
        kind: 'unreadable',
        field: 'minute',
        text: '-',
        offset: 3,
        message: 'minute: unexpected "-" after "1-2"',
      },
    ],
    [
      '*/5/2 * * * *',
      {
        kind: 'unreadable',
        field: 'minute',
        text: '/',
        offset: 3,
        message: 'minute: unexpected "/" after "*/5"',
      },
    ],
    [
      '1,,2 * * * *',
      {
        kind: 'unreadable',
        field: 'minute',
        text: ',',
        offset: 2,
        message: 'minute: a comma needs a value on each side',
      },
    ],
    [
      ',1 * * * *',
      {
        kind: 'unreadable',
        field: 'minute',
        text: ',',
        offset: 0,
        message: 'minute: a comma needs a value on each side',
      },
    ],
    [
      '* 1, * * *',
      {
        kind: 'unreadable',
        field: 'hour',
        text: ',',
        offset: 3,
        message: 'hour: a comma needs a value on each side',
      },
    ],
    [
      '* * * * 1\u0000',
      {
        kind: 'unreadable',
        field: 'day_of_week',
        text: '\u0000',
        offset: 9,
        message: 'day_of_week: unexpected U+0000 after "1"',
      },
    ],
    [
      '* * * * 😀',
      {
        kind: 'unreadable',
        field: 'day_of_week',
        text: '😀',
        offset: 8,
        message: 'day_of_week: unexpected "😀" (U+1F600)',
      },
    ],
    // Superscripts are not decimal digits: a stray character, not a wrong-script number.
    [
      '² * * * *',
      {
        kind: 'unreadable',
        field: 'minute',
        text: '²',
        offset: 0,
        message: 'minute: unexpected "²" (U+00B2)',
      },
    ],
  ])('%s', (text, expected) => {
    expect(errorOf(text)).toEqual(expected);
  });

  it('reports an unreadable field before an out-of-range one earlier in the text', () => {
    // policy.yaml must refuse this file, so the unreadable part wins.
    expect(errorOf('99 * * * MON')).toMatchObject({ kind: 'unreadable', field: 'day_of_week', text: 'MON' });
    expect(errorOf('99 * * *')).toMatchObject({ kind: 'unreadable', field: null });
  });
});
