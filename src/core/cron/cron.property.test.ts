/**
 * Property tests of the cron dialect against a reference written independently of the parser and
 * the search: expressions are generated from the grammar together with what each item means, and
 * the reference decides a minute straight from that meaning with the Date getters.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { daysInMonth, weekday } from './calendar.js';
import { CRON_FIELDS } from './fields.js';
import { formatCron } from './format.js';
import { HORIZON_YEARS, matches, nextFireAfter } from './next-fire.js';
import { parseCron } from './parse.js';

interface Meaning {
  text: string;
  has: (v: number) => boolean;
}

const num = (v: number): fc.Arbitrary<string> =>
  fc.integer({ min: 0, max: 9 }).map((r) => (r === 0 ? `0${v}` : `${v}`)); // a leading zero now and then

const between = (min: number, max: number) =>
  fc.tuple(fc.integer({ min, max }), fc.integer({ min, max })).map(([a, b]) => (a <= b ? [a, b] : [b, a]));

/** One list item of a field whose values run min..max, with its meaning per the spec's table. */
function item(min: number, max: number): fc.Arbitrary<Meaning> {
  const step = fc.integer({ min: 1, max: max - min + 3 });
  return fc.oneof(
    fc.constant<Meaning>({ text: '*', has: (v) => v >= min && v <= max }),
    fc.integer({ min, max }).chain((n) => num(n).map((t) => ({ text: t, has: (v: number) => v === n }))),
    between(min, max).chain(([a, b]) =>
      fc
        .tuple(num(a!), num(b!))
        .map(([ta, tb]) => ({ text: `${ta}-${tb}`, has: (v: number) => v >= a! && v <= b! })),
    ),
    step.map((s) => ({ text: `*/${s}`, has: (v: number) => v >= min && v <= max && (v - min) % s === 0 })),
    fc.tuple(between(min, max), step).map(([[a, b], s]) => ({
      text: `${a}-${b}/${s}`,
      has: (v: number) => v >= a! && v <= b! && (v - a!) % s === 0,
    })),
    fc.tuple(fc.integer({ min, max }), step).map(([a, s]) => ({
      text: `${a}/${s}`,
      has: (v: number) => v >= a && v <= max && (v - a) % s === 0,
    })),
  );
}

function list(min: number, max: number): fc.Arbitrary<Meaning> {
  return fc.array(item(min, max), { minLength: 1, maxLength: 3 }).map((items) => ({
    text: items.map((i) => i.text).join(','),
    has: (v) => items.some((i) => i.has(v)),
  }));
}

const STAR = (min: number, max: number): Meaning => ({ text: '*', has: (v) => v >= min && v <= max });

/** A field that is `*` with the given weight (out of 10), else a random list. */
function field(index: number, starWeight: number): fc.Arbitrary<Meaning> {
  const { min, max } = CRON_FIELDS[index]!;
  return fc.oneof(
    { arbitrary: fc.constant(STAR(min, max)), weight: starWeight },
    { arbitrary: list(min, max), weight: 10 - starWeight },
  );
}

interface Expr {
  text: string;
  fields: Meaning[];
}

const gap = fc.constantFrom(' ', '\t', '  ', ' \t ');
const edge = fc.constantFrom('', ' ', '\n', ' \t');

function expression(fields: fc.Arbitrary<Meaning>[]): fc.Arbitrary<Expr> {
  return fc
    .tuple(fc.tuple(...fields), fc.array(gap, { minLength: 4, maxLength: 4 }), edge, edge)
    .map(([fs, gaps, lead, trail]) => ({
      text: lead + fs.map((f, i) => (i === 0 ? f.text : gaps[i - 1]! + f.text)).join('') + trail,
      fields: fs,
    }));
}

/** The spec's meaning of a minute: every field matches, day of week 7 standing for Sunday. */
function refMatches(e: Expr, d: Date): boolean {
  const [mi, h, dom, mo, dow] = e.fields as [Meaning, Meaning, Meaning, Meaning, Meaning];
  const wd = d.getUTCDay();
  return (
    mi.has(d.getUTCMinutes()) &&
    h.has(d.getUTCHours()) &&
    dom.has(d.getUTCDate()) &&
    mo.has(d.getUTCMonth() + 1) &&
    (dow.has(wd) || (wd === 0 && dow.has(7)))
  );
}

const MINUTE = 60_000;
const DAY = 86_400_000;

function firstMinuteAfter(after: Date): number {
  return Math.floor(after.getTime() / MINUTE) * MINUTE + MINUTE;
}

/** Minute by minute, at most `limit` minutes; null when none matched in that window. */
function bruteForce(e: Expr, after: Date, limit: number): Date | null {
  const d = new Date(firstMinuteAfter(after));
  for (let i = 0; i < limit; i++, d.setTime(d.getTime() + MINUTE)) if (refMatches(e, d)) return new Date(d);
  return null;
}

/**
 * Day by day over the same 400-year window the search uses, minute by minute within a matching
 * day: exact, and fast enough for expressions that fire once in years or never.
 */
function dayByDay(e: Expr, after: Date): Date | null {
  const first = firstMinuteAfter(after);
  const end = Date.UTC(new Date(first).getUTCFullYear() + HORIZON_YEARS + 1, 0, 1);
  const [, , dom, mo, dow] = e.fields as [Meaning, Meaning, Meaning, Meaning, Meaning];
  for (let day = Math.floor(first / DAY) * DAY; day < end; day += DAY) {
    const d = new Date(day);
    const wd = d.getUTCDay();
    if (!(
      dom.has(d.getUTCDate()) &&
      mo.has(d.getUTCMonth() + 1) &&
      (dow.has(wd) || (wd === 0 && dow.has(7)))
    ))
      continue;
    for (let t = Math.max(day, first); t < day + DAY; t += MINUTE)
      if (refMatches(e, new Date(t))) return new Date(t);
  }
  return null;
}

function compile(e: Expr) {
  const r = parseCron(e.text);
  if (!r.ok) throw new Error(`${JSON.stringify(e.text)} refused: ${r.error.message}`);
  return r.cron;
}

const instant = fc.oneof(
  fc.date({
    min: new Date('1970-01-01T00:00:00Z'),
    max: new Date('2300-12-31T23:59:59Z'),
    noInvalidDate: true,
  }),
  // Around month, year and leap-day boundaries, where carries happen.
  fc
    .tuple(
      fc.integer({ min: 1970, max: 2300 }),
      fc.constantFrom(0, 1, 2, 11),
      fc.integer({ min: -2, max: 1 }),
      fc.integer({ min: 0, max: DAY - 1 }),
    )
    .map(([y, m, dd, ms]) => new Date(Date.UTC(y, m, 1) + dd * DAY + ms)),
);

/** Dense enough that most fire within the brute-force window; the rest check the "beyond" branch. */
const dense = expression([field(0, 2), field(1, 3), field(2, 6), field(3, 7), field(4, 6)]);
const WINDOW = 100_000; // minutes, about 69 days

describe('cron properties', () => {
  it('nextFireAfter equals a minute-by-minute search (dense expressions)', () => {
    fc.assert(
      fc.property(dense, instant, (e, after) => {
        const cron = compile(e);
        const got = nextFireAfter(cron, after);
        const want = bruteForce(e, after, WINDOW);
        if (want !== null) {
          expect(got?.toISOString()).toBe(want.toISOString());
          expect(matches(cron, got!)).toBe(true);
        } else {
          // Nothing in the window: the answer, if any, lies beyond it.
          if (got !== null)
            expect(got.getTime()).toBeGreaterThanOrEqual(firstMinuteAfter(after) + WINDOW * MINUTE);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('nextFireAfter equals a day-by-day search over the whole horizon (rare and impossible dates)', () => {
    const rareDom = fc.oneof(
      fc.constantFrom(29, 30, 31).map((n) => ({ text: `${n}`, has: (v: number) => v === n })),
      fc.constant({ text: '30-31', has: (v: number) => v >= 30 }),
      list(1, 31),
    );
    const rareMonth = fc.oneof(
      fc.constantFrom(2, 4, 6, 9, 11).map((n) => ({ text: `${n}`, has: (v: number) => v === n })),
      list(1, 12),
    );
    const rare = expression([field(0, 2), field(1, 3), rareDom, rareMonth, field(4, 3)]);
    fc.assert(
      fc.property(rare, instant, (e, after) => {
        const cron = compile(e);
        const got = nextFireAfter(cron, after);
        const want = dayByDay(e, after);
        expect(got?.toISOString() ?? null).toBe(want?.toISOString() ?? null);
        if (got !== null) {
          expect(got.getTime()).toBeGreaterThan(after.getTime());
          // Before 1970 a time is negative and `%` answers -0 for a whole minute: compare with ==.
          expect(got.getTime() % MINUTE === 0).toBe(true);
          expect(matches(cron, got)).toBe(true);
        }
      }),
      { numRuns: 80 },
    );
  });

  it('matches agrees with the meaning of the expression', () => {
    const any = expression([0, 1, 2, 3, 4].map((i) => field(i, 2)));
    fc.assert(
      fc.property(any, instant, (e, d) => {
        expect(matches(compile(e), d)).toBe(refMatches(e, d));
      }),
      { numRuns: 500 },
    );
  });

  it('formatCron reads back to the same sets', () => {
    const any = expression([0, 1, 2, 3, 4].map((i) => field(i, 2)));
    fc.assert(
      fc.property(any, (e) => {
        const cron = compile(e);
        const again = parseCron(formatCron(cron));
        expect(again.ok && again.cron).toEqual(cron);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws, and every error points at its own text', () => {
    const ch = fc.constantFrom(...'0123456789*-/, \t\nJANmon?#L٣３@'.split(''), '\u00a0', '😀');
    const text = fc.array(ch, { maxLength: 24 }).map((cs) => cs.join(''));
    const fiveish = fc.array(fc.array(ch, { minLength: 1, maxLength: 4 }), { minLength: 4, maxLength: 6 });
    const cronish = fiveish.map((fs) => fs.map((f) => f.join('')).join(' '));
    fc.assert(
      fc.property(fc.oneof(text, cronish), (t) => {
        const r = parseCron(t);
        if (r.ok) return;
        const { offset, text: bad, message, field, kind } = r.error;
        expect(t.slice(offset, offset + bad.length)).toBe(bad);
        expect(offset).toBeGreaterThanOrEqual(0);
        expect(offset).toBeLessThanOrEqual(t.length);
        expect(message.startsWith(field === null ? 'expected 5 fields' : `${field}: `)).toBe(true);
        expect(['unreadable', 'out_of_range']).toContain(kind);
      }),
      { numRuns: 2000 },
    );
  });

  it('calendar helpers agree with Date', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 1, max: 12 }), (y, m) => {
        const d = new Date(0);
        d.setUTCFullYear(y, m, 0); // day 0 of the next month: the last day of this one
        expect(daysInMonth(y, m)).toBe(d.getUTCDate());
        expect(weekday(y, m, d.getUTCDate())).toBe(d.getUTCDay());
        d.setUTCFullYear(y, m - 1, 1);
        expect(weekday(y, m, 1)).toBe(d.getUTCDay());
      }),
      { numRuns: 2000 },
    );
  });
});
