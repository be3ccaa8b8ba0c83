import { describe, expect, it } from 'vitest';
import { errorOf, type Expected } from '../../../test/helpers/cron-errors.js';

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
