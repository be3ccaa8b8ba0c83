/**
 * Jig's cron dialect, written by hand on purpose: no library reads exactly this dialect. Classic
 * cron and its libraries OR day of month with day of week, read names (`MON`, `JAN`), shortcuts
 * (`@daily`) and Quartz extras (`L`, `W`, `#`, `?`); the spec (service.md, Cron syntax) ANDs the
 * two day fields, reads none of those, makes 7 a Sunday, refuses any digit other than 0-9 and
 * must say which field is wrong and where. Three passes, so the first error reported is the most
 * serious one: the field count, then the grammar of every field (`unreadable`), then the values
 * (`out_of_range`). A policy.yaml entry must be refused if any part of it is unreadable, even when
 * an earlier field only holds an out-of-range number.
 */
import { compileField } from './compile.js';
import { cronError, describeChar, type CronError } from './errors.js';
import { CRON_FIELDS, type CompiledCron } from './fields.js';
import { readField, type CronItem } from './syntax.js';

export type CronParse = { ok: true; cron: CompiledCron } | { ok: false; error: CronError };

/** Leading and trailing whitespace is ignored; a YAML block scalar leaves a line break there. */
const EDGE_SPACE = /[ \t\r\n]/;
/** Between fields only spaces and tabs separate. */
const FIELD = /[^ \t]+/g;
/** Whitespace a person may have meant as a separator but which is not one (shown as a hint). */
const FALSE_SEPARATOR = /[^\S \t]/u;

export function parseCron(text: string): CronParse {
  let from = 0;
  let to = text.length;
  while (from < to && EDGE_SPACE.test(text[from] ?? '')) from++;
  while (to > from && EDGE_SPACE.test(text[to - 1] ?? '')) to--;
  const body = text.slice(from, to);

  const fields = [...body.matchAll(FIELD)].map((m) => ({ text: m[0], offset: from + m.index }));
  if (fields.length !== CRON_FIELDS.length) return { ok: false, error: countError(body, from, fields) };

  const items: CronItem[][] = [];
  for (const [i, field] of CRON_FIELDS.entries()) {
    const written = fields[i]!;
    const read = readField(field, written.text, written.offset);
    if (!read.ok) return read;
    items.push(read.items);
  }

  const sets: boolean[][] = [];
  for (const [i, field] of CRON_FIELDS.entries()) {
    const set = compileField(field, items[i]!);
    if (!Array.isArray(set)) return { ok: false, error: set };
    sets.push(set);
  }
  const [minute, hour, dayOfMonth, month, dayOfWeek] = sets as [
    boolean[],
    boolean[],
    boolean[],
    boolean[],
    boolean[],
  ];
  // 7 is Sunday too: fold it onto 0 so matching needs only getUTCDay().
  const dow = dayOfWeek.slice(0, 7);
  if (dayOfWeek[7] === true) dow[0] = true;
  const cron: CompiledCron = {
    minute: Object.freeze(minute),
    hour: Object.freeze(hour),
    day_of_month: Object.freeze(dayOfMonth),
    month: Object.freeze(month),
    day_of_week: Object.freeze(dow),
  };
  return { ok: true, cron: Object.freeze(cron) };
}

function countError(body: string, from: number, fields: { text: string; offset: number }[]): CronError {
  let message = `expected 5 fields, got ${fields.length}`;
  const odd = FALSE_SEPARATOR.exec(body);
  if (body.startsWith('@')) message += '; shortcuts such as @daily are not read';
  else if (odd !== null)
    message += `; fields are separated by spaces or tabs, and ${describeChar(odd[0])} is neither`;
  // Too many: point at the first extra field. Too few: the whole expression is at fault.
  const extra = fields[CRON_FIELDS.length];
  if (extra !== undefined)
    return cronError('unreadable', null, body.slice(extra.offset - from), extra.offset, message);
  return cronError('unreadable', null, body, body === '' ? 0 : from, message);
}
