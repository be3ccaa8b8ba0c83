import { describe, expect, it } from 'vitest';
import { logTail } from './log-tail.js';

describe('the end of a check log', () => {
  it('keeps the last 40 lines, without trailing blank lines or CRLF', () => {
    const text = Array.from({ length: 50 }, (_, i) => `l${i + 1}`).join('\r\n') + '\r\n\n  \n';
    expect(logTail(text)).toBe(Array.from({ length: 40 }, (_, i) => `l${i + 11}`).join('\n'));
  });

  it('keeps the last 4000 characters of lines too long to fit', () => {
    const text = `${'a'.repeat(3000)}\n${'b'.repeat(3000)}`;
    expect(logTail(text)).toBe(`${'a'.repeat(999)}\n${'b'.repeat(3000)}`);
  });

  it('keeps what a terminal shows of a line a carriage return rewrote', () => {
    expect(logTail('downloading 10%\rdownloading 100%\ndone')).toBe('downloading 100%\ndone');
  });

  it('no text, or only blanks, is no log', () => {
    expect([logTail(null), logTail(undefined), logTail(''), logTail(' \n\n')]).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });
});
