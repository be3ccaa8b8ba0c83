import { cronError, type CronError } from './errors.js';
import type { CronField } from './fields.js';
import type { CronItem, NumberToken } from './syntax.js';

/**
 * Turns a field's items into its set of allowed values, refusing values the grammar could read
 * but the field cannot hold. Every error here is `out_of_range` (see `errors.ts`).
 */

const ASCII_DIGITS = /^[0-9]+$/;

function readNumber(field: CronField, tok: NumberToken): number | CronError {
  if (!ASCII_DIGITS.test(tok.text))
    return cronError(
      'out_of_range',
      field.name,
      tok.text,
      tok.offset,
      `${tok.text} uses a digit other than 0-9`,
    );
  // Number() of a very long run is huge or Infinity; both are simply outside the field.
  return Number(tok.text);
}

function readValue(field: CronField, tok: NumberToken): number | CronError {
  const n = readNumber(field, tok);
  if (typeof n !== 'number') return n;
  if (n < field.min || n > field.max)
    return cronError(
      'out_of_range',
      field.name,
      tok.text,
      tok.offset,
      `${tok.text} is outside ${field.min}-${field.max}`,
    );
  return n;
}

/** The field's allowed values, indexed by value (0..max); an error at the first bad item. */
export function compileField(field: CronField, items: readonly CronItem[]): boolean[] | CronError {
  const allowed = new Array<boolean>(field.max + 1).fill(false);
  for (const item of items) {
    let from = field.min;
    let to = field.max;
    if (item.start !== undefined) {
      const a = readValue(field, item.start);
      if (typeof a !== 'number') return a;
      from = a;
      // `N` alone is one value; `N/S` runs from N to the field's top.
      if (item.step === undefined) to = a;
    }
    if (item.end !== undefined) {
      const b = readValue(field, item.end);
      if (typeof b !== 'number') return b;
      if (b < from)
        return cronError(
          'out_of_range',
          field.name,
          rangeText(item),
          item.offset,
          `range ${rangeText(item)} runs backwards`,
        );
      to = b;
    }
    let step = 1;
    if (item.step !== undefined) {
      const s = readNumber(field, item.step);
      if (typeof s !== 'number') return s;
      // A step larger than the span is allowed (it picks the first value only): the spec refuses
      // only a zero step, and classic cron reads `*/90` the same way.
      if (s === 0)
        return cronError(
          'out_of_range',
          field.name,
          item.step.text,
          item.step.offset,
          `step ${item.step.text} is not allowed`,
        );
      step = s;
    }
    for (let v = from; v <= to; v += step) allowed[v] = true;
  }
  return allowed;
}

function rangeText(item: CronItem): string {
  return `${item.start?.text ?? ''}-${item.end?.text ?? ''}`;
}
