import { describe, expect, it } from 'vitest';
import { bytes } from './bytes.js';

describe('bytes', () => {
  it('counts in binary units with one decimal above a kilobyte', () => {
    expect([0, 1023, 1024, 1536, 5 * 1024 ** 2, 3.25 * 1024 ** 3, 2 * 1024 ** 5].map(bytes)).toEqual([
      '0 B',
      '1023 B',
      '1.0 KB',
      '1.5 KB',
      '5.0 MB',
      '3.3 GB',
      '2048.0 TB',
    ]);
  });
});
