import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './list-cursor.js';

describe('the item list cursor', () => {
  it('gives back what it was made from', () => {
    const c = { created_at: '2026-12-02T15:30:44.123Z', id: 'w-1' };
    expect(decodeCursor(encodeCursor(c))).toEqual(c);
  });

  it('takes back only a time this server wrote: no other form, no garbage, no missing id', () => {
    const made = (text: string) => Buffer.from(text).toString('base64url');
    expect(decodeCursor(made('2026-12-02T15:30:44Z|w-1'))).toBeNull();
    expect(decodeCursor(made('2026-12-02T17:30:44.123+02:00|w-1'))).toBeNull();
    expect(decodeCursor(made('yesterday|w-1'))).toBeNull();
    expect(decodeCursor(made('2026-12-02T15:30:44.123Z|'))).toBeNull();
    expect(decodeCursor('!!!')).toBeNull();
  });
});
