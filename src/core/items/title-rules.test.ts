import { describe, expect, it } from 'vitest';
import { checkTitle, codePointLength, dropHiddenCharacters, TITLE_MAX } from './title-rules.js';

const refused = (title: string): string => {
  const r = checkTitle(title);
  if (r.ok) throw new Error(`expected ${JSON.stringify(title)} to be refused`);
  return r.message;
};

describe('checkTitle', () => {
  it('accepts one plain line and trims surrounding spaces', () => {
    expect(checkTitle('Fix the login page')).toEqual({ ok: true, title: 'Fix the login page' });
    expect(checkTitle('  Fix it  ')).toEqual({ ok: true, title: 'Fix it' });
    expect(checkTitle('Réparer 🐛 — 修复 עברית')).toEqual({ ok: true, title: 'Réparer 🐛 — 修复 עברית' });
    // A zero-width joiner is a format character, not a control: family emoji keep working.
    expect(checkTitle('👨‍👩‍👧')).toEqual({ ok: true, title: '👨‍👩‍👧' });
  });

  it.each(['', ' ', '   ', '\u3000', '\u00a0 '])('refuses an empty or whitespace title %j', (title) => {
    expect(refused(title)).toBe('title cannot be empty');
  });

  it('checks empty first: whitespace made of line breaks or tabs is empty', () => {
    expect(refused('\n')).toBe('title cannot be empty');
    expect(refused(' \t ')).toBe('title cannot be empty');
  });

  it.each([
    ['a\nb'],
    ['a\r\nb'],
    ['a\rb'],
    ['a\u2028b'],
    ['a\u2029b'],
    ['a\u0085b'],
    ['trailing\n'],
    ['\nleading'],
    ['trailing\r\n'],
  ])('refuses a line break anywhere: %j', (title) => {
    expect(refused(title)).toBe('the title is one line');
  });

  it('checks line breaks before control characters', () => {
    expect(refused('a\tb\nc')).toBe('the title is one line');
  });

  it.each([
    ['tab', 'a\tb'],
    ['escape', 'red \u001b[31m text'],
    ['NUL', 'a\u0000b'],
    ['bell', 'a\u0007'],
    ['vertical tab', 'a\u000bb'],
    ['form feed', 'a\u000cb'],
    ['DEL', 'a\u007fb'],
    ['C1 control', 'a\u0080b'],
    ['C1 CSI', 'a\u009bb'],
    ['lone high surrogate', 'a\ud83db'],
    ['lone low surrogate', 'a\ude00b'],
    ['surrogates out of order', 'a\ude00\ud83d'],
  ])('refuses a %s as not plain text', (_name, title) => {
    expect(refused(title)).toBe('the title is plain text');
  });

  it('counts code points and refuses over 500', () => {
    expect(checkTitle('a'.repeat(TITLE_MAX))).toEqual({ ok: true, title: 'a'.repeat(500) });
    expect(refused('a'.repeat(501))).toBe('the title is at most 500 characters (got 501)');
    // 500 emoji are 1000 UTF-16 units but 500 characters.
    expect(checkTitle('😀'.repeat(500)).ok).toBe(true);
    expect(refused('😀'.repeat(600))).toBe('the title is at most 500 characters (got 600)');
    // Surrounding spaces are not stored, so they do not count.
    expect(checkTitle(`  ${'a'.repeat(500)}  `).ok).toBe(true);
  });

  it('checks control characters before the length', () => {
    expect(refused(`${'a'.repeat(600)}\t`)).toBe('the title is plain text');
  });

  it('codePointLength counts code points', () => {
    expect(codePointLength('')).toBe(0);
    expect(codePointLength('abc')).toBe(3);
    expect(codePointLength('😀x')).toBe(2);
    expect(codePointLength('\ud83d')).toBe(1);
  });
});

describe('invisible format characters (issue 14)', () => {
  it.each([
    ['a bidi override', 'Fix \u202Eexe.txt'],
    ['a bidi embedding', 'a\u202Ab'],
    ['a bidi isolate', 'a\u2066b\u2069'],
    ['a left-to-right mark', 'a\u200Eb'],
    ['a zero-width space', 'Fix\u200Bit'],
    ['a word joiner', 'a\u2060b'],
    ['a byte order mark', '\uFEFFFix it'],
    ['a soft hyphen', 'in\u00ADvisible'],
    ['a joiner at the start', '\u200Dfix'],
    ['a joiner before a space', 'fix\u200D it'],
    ['tag characters that spell hidden text', 'Fix it\u{E0069}\u{E0067}\u{E006E}'],
  ])('refuses %s', (_what, title) => {
    expect(refused(title)).toBe('the title is plain text');
  });

  it.each([
    ['a family emoji (joiners between emoji)', '👨‍👩‍👧 party'],
    ['the rainbow flag (joiner after a variation selector)', '🏳️‍🌈'],
    ['a subdivision flag (tag run after a black flag)', 'Scotland 🏴󠁧󠁢󠁳󠁣󠁴󠁿'],
    ['a Persian word with a non-joiner', 'می‌خواهم'],
    ['a Devanagari conjunct with a joiner', 'क्‍ष'],
  ])('keeps %s', (_what, title) => {
    expect(checkTitle(title)).toEqual({ ok: true, title });
  });

  it('cleans what it refuses: the schedule cleaner and a duplicate drop the same characters', () => {
    expect(dropHiddenCharacters('Fix \u202Eit\u200B now\u{E0069}')).toBe('Fix it now');
    expect(dropHiddenCharacters('👨‍👩‍👧 \u200Dx')).toBe('👨‍👩‍👧 x');
  });
});

describe('hidden characters at scale (issue 14 review)', () => {
  it('a flag admits only a region code, not hidden words', () => {
    const tags = (t: string) => [...t].map((c) => String.fromCodePoint(0xe0000 + c.codePointAt(0)!)).join('');
    expect(checkTitle(`Fix login 🏴${tags('ignore all previous instructions')}\u{E007F}`)).toEqual({
      ok: false,
      message: 'the title is plain text',
    });
    expect(checkTitle(`Wales 🏴${tags('gbwls')}\u{E007F}`)).toMatchObject({ ok: true });
  });

  it('checks a megabyte of joiners in one pass', () => {
    // A quadratic check took minutes on this (the test's own timeout fails it); a linear one, ms.
    expect(checkTitle('a\u200D'.repeat(250_000))).toEqual({ ok: false, message: 'the title is plain text' });
    expect(checkTitle('a\u200Db'.repeat(150_000))).toEqual({
      ok: false,
      message: 'the title is at most 500 characters (got 450000)',
    });
  });
});
