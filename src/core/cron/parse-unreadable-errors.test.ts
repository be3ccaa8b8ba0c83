import { describe, expect, it } from 'vitest';
import { errorOf, type Expected } from '../../../test/helpers/cron-errors.js';

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
