import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkTitle } from '../items/title-rules.js';
import { cleanScheduleTitle } from './title.js';

const filed = (title: string, description?: string) => cleanScheduleTitle(title, description);

describe('cleanScheduleTitle', () => {
  it('keeps a plain title and its description', () => {
    expect(filed('Weekly dependency bump', 'Run npm outdated')).toEqual({
      blank: false,
      title: 'Weekly dependency bump',
      description: 'Run npm outdated',
    });
    expect(filed('Nightly')).toEqual({ blank: false, title: 'Nightly', description: '' });
  });

  describe('1. a line break ends the title', () => {
    it('files the first line as title and the rest on top of the description', () => {
      expect(filed('Bump deps\nCheck the lock file too', 'Weekly run')).toEqual({
        blank: false,
        title: 'Bump deps',
        description: 'Check the lock file too\n\nWeekly run',
      });
    });

    it('uses the rest alone when the description is empty or blank', () => {
      expect(filed('Bump deps\nmore', '')).toEqual({ blank: false, title: 'Bump deps', description: 'more' });
      expect(filed('Bump deps\nmore', ' \n ')).toEqual({
        blank: false,
        title: 'Bump deps',
        description: 'more',
      });
    });

    it('trims blank lines around the rest but keeps its inner shape', () => {
      expect(filed('T\n\n \n  indented\n\n- item\n\n\t\n', 'D')).toEqual({
        blank: false,
        title: 'T',
        description: '  indented\n\n- item\n\nD',
      });
    });

    it.each(['\r\n', '\r', '\u2028', '\u2029', '\u0085'])('treats %j as a line break', (brk) => {
      expect(filed(`A${brk}B`)).toEqual({ blank: false, title: 'A', description: 'B' });
    });
  });

  describe('2. block scalars, controls and tabs', () => {
    it("drops a block scalar's trailing line break", () => {
      expect(filed('Nightly build\n', 'D')).toEqual({
        blank: false,
        title: 'Nightly build',
        description: 'D',
      });
      // `|+` keeps every trailing break; none of them makes a description.
      expect(filed('Nightly build\n\n\n')).toEqual({ blank: false, title: 'Nightly build', description: '' });
    });

    it('drops control characters and turns a tab into a space', () => {
      expect(filed('Bump\tdeps\u0007 now\u001b[0m')).toEqual({
        blank: false,
        title: 'Bump deps now[0m',
        description: '',
      });
      expect(filed('a\u007fb\u0080c\u009fd')).toEqual({ blank: false, title: 'abcd', description: '' });
      expect(filed('a\ud83db\ude00c')).toEqual({ blank: false, title: 'abc', description: '' });
      expect(filed('\tIndented title\t')).toEqual({ blank: false, title: 'Indented title', description: '' });
    });

    it('keeps characters that are not controls', () => {
      expect(filed('Réparer 😀 👨‍👩‍👧 修复')).toEqual({
        blank: false,
        title: 'Réparer 😀 👨‍👩‍👧 修复',
        description: '',
      });
    });

    it('trims surrounding whitespace', () => {
      expect(filed('   Nightly  \u00a0')).toEqual({ blank: false, title: 'Nightly', description: '' });
    });
  });

  describe('3. a blank title takes the description first non-blank line', () => {
    it('copies the line, cleaned, and keeps the description whole', () => {
      expect(filed('', '\n  \n\tRotate\tkeys \u0007\nThen tell the team')).toEqual({
        blank: false,
        title: 'Rotate keys',
        description: '\n  \n\tRotate\tkeys \u0007\nThen tell the team',
      });
      expect(filed('  \t', 'Rotate keys')).toEqual({
        blank: false,
        title: 'Rotate keys',
        description: 'Rotate keys',
      });
    });

    it('skips description lines that are blank once cleaned', () => {
      expect(filed('', '\u0001\u0002\nReal line')).toMatchObject({ title: 'Real line' });
    });

    it('reads a title whose first line is blank as blank', () => {
      expect(filed('\nSecond line', 'D')).toEqual({
        blank: false,
        title: 'Second line',
        description: 'Second line\n\nD',
      });
    });
  });

  it('answers blank when title and description are both blank', () => {
    expect(filed('', '')).toEqual({ blank: true });
    expect(filed('  \n\t\n', ' \n ')).toEqual({ blank: true });
    expect(filed('\u0007', '\u0000\n\u001b')).toEqual({ blank: true });
    expect(filed('')).toEqual({ blank: true });
  });

  describe('500 characters', () => {
    it('keeps a title of exactly 500', () => {
      expect(filed('a'.repeat(500), 'D')).toEqual({ blank: false, title: 'a'.repeat(500), description: 'D' });
    });

    it('cuts a longer title and opens the description with the cut text', () => {
      const long = `${'a'.repeat(498)} bcd efg`;
      expect(filed(long, 'D')).toEqual({
        blank: false,
        title: `${'a'.repeat(498)} b`,
        description: 'cd efg\n\nD',
      });
    });

    it('puts the cut text before the rest of a multi-line title', () => {
      expect(filed(`${'a'.repeat(500)}xyz\nsecond`, 'D')).toEqual({
        blank: false,
        title: 'a'.repeat(500),
        description: 'xyz\nsecond\n\nD',
      });
    });

    it('counts code points and never splits a character or a joined emoji', () => {
      const emoji = filed('😀'.repeat(501));
      expect(emoji).toEqual({ blank: false, title: '😀'.repeat(500), description: '😀' });
      const family = '👨‍👩‍👧'; // 5 code points, one grapheme
      const r = filed(`${'a'.repeat(497)}${family}z`);
      expect(r).toEqual({ blank: false, title: 'a'.repeat(497), description: `${family}z` });
      const accent = 'e\u0301'; // e + combining acute
      expect(filed(`${'a'.repeat(499)}${accent}`)).toEqual({
        blank: false,
        title: 'a'.repeat(499),
        description: accent,
      });
    });

    it('only cuts a title taken from the description', () => {
      const line = 'b'.repeat(600);
      expect(filed('', line)).toEqual({ blank: false, title: 'b'.repeat(500), description: line });
    });

    it('cuts between code points when one cluster is longer than the limit', () => {
      const zalgo = `a${'\u0301'.repeat(600)}`;
      const r = filed(zalgo);
      expect(r.blank).toBe(false);
      if (!r.blank) {
        expect([...r.title]).toHaveLength(500);
        expect(r.title + r.description).toBe(zalgo);
      }
    });
  });

  it('always answers a title the strict rules accept, or blank when nothing visible was written', () => {
    const unit = fc.oneof(
      fc.constantFrom('\n', '\r', '\r\n', '\t', '\u0085', '\u2028', '\u0000', '\u001b', '\u007f', '\u009b'),
      fc.constantFrom('\ud83d', '\ude00', ' ', '\u00a0', '😀', 'e\u0301', '👨‍👩‍👧'),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
    );
    const text = fc.oneof(
      fc.string({ unit, maxLength: 12 }),
      fc.string({ unit, minLength: 60, maxLength: 200 }),
    );
    fc.assert(
      fc.property(text, text, (t, d) => {
        const r = cleanScheduleTitle(t, d);
        const visible = /[^\s\u0000-\u001f\u007f-\u009f\ud800-\udfff]/u;
        if (r.blank) {
          expect(visible.test(t) || visible.test(d)).toBe(false);
          return;
        }
        expect(checkTitle(r.title)).toEqual({ ok: true, title: r.title });
      }),
      { numRuns: 1000 },
    );
  });
});
