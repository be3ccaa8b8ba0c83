import { describe, expect, it } from 'vitest';
import { codePointLength } from '../items/title-rules.js';
import { graphemeCut, utf16Length } from './graphemes.js';

describe('graphemeCut', () => {
  const family = '👨‍👩‍👧'; // one cluster: 5 code points, 8 UTF-16 units

  it('keeps whole clusters only, by the measure it is given', () => {
    const text = `ab${family}cd`;
    expect(graphemeCut(text, 9, utf16Length)).toBe(2); // the family would make 10 units
    expect(graphemeCut(text, 10, utf16Length)).toBe(10);
    expect(graphemeCut(text, 7, codePointLength)).toBe(10); // 2 + 5 code points
    expect(graphemeCut(text, 6, codePointLength)).toBe(2);
  });

  it('keeps an accented letter whole and answers 0 when not even the first cluster fits', () => {
    const e = 'e\u0301'; // é as e + combining acute
    expect(graphemeCut(`${e}${e}`, 3, utf16Length)).toBe(2);
    expect(graphemeCut(family, 4, codePointLength)).toBe(0);
    expect(graphemeCut('', 5, utf16Length)).toBe(0);
    expect(graphemeCut('abc', 10, utf16Length)).toBe(3);
  });
});
