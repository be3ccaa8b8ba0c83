import { describe, expect, it } from 'vitest';
import { joinsLastStep } from './undo.js';

const put = (file: string, touchedAt: number) => ({ kind: 'put' as const, file, touchedAt });

describe('joinsLastStep', () => {
  it('joins a PUT of the same file less than 4 s after the previous one', () => {
    expect(joinsLastStep(put('chains/a.yaml', 1_000), 'chains/a.yaml', 4_999)).toBe(true);
  });
  it('starts a new step at 4 s or later, for another file, after an ops request, or with no step', () => {
    expect(joinsLastStep(put('chains/a.yaml', 1_000), 'chains/a.yaml', 5_000)).toBe(false);
    expect(joinsLastStep(put('chains/a.yaml', 1_000), 'library.yaml', 1_500)).toBe(false);
    expect(joinsLastStep({ kind: 'ops', file: null, touchedAt: 1_000 }, 'chains/a.yaml', 1_500)).toBe(false);
    expect(joinsLastStep(null, 'chains/a.yaml', 0)).toBe(false);
  });
});
