import { describe, expect, it } from 'vitest';
import { usdText } from './usd.js';

describe('usdText', () => {
  it('keeps two decimals when they are exact, and as many as needed otherwise', () => {
    expect([0, 12.5, 3, 0.1].map(usdText)).toEqual(['0.00', '12.50', '3.00', '0.10']);
    expect([0.0001, 0.0006, 1.234567, 0.125, 2.0000004].map(usdText)).toEqual([
      '0.0001',
      '0.0006',
      '1.234567',
      '0.125',
      '2.00',
    ]);
  });
});
