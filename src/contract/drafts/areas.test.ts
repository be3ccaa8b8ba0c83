import { describe, expect, it } from 'vitest';
import { draftApply, draftAreas, draftFiles, isDraftArea, keyAccepted } from './areas.js';

describe('draft areas', () => {
  it('knows the six areas and nothing else', () => {
    expect(draftAreas.map(isDraftArea)).toEqual([true, true, true, true, true, true]);
    expect(['chain', 'Chains', 'settings', ''].map(isDraftArea)).toEqual([false, false, false, false]);
  });

  it('takes a chain id as a chains key, and only its own name for the other areas', () => {
    expect(['fast', 'a', 'quick-task', 'x_1'].map((k) => keyAccepted('chains', k))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['Fast', '1x', '-a', 'a.b', '', 'a'.repeat(65)].map((k) => keyAccepted('chains', k))).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(keyAccepted('library', 'library')).toBe(true);
    expect(keyAccepted('library', 'fast')).toBe(false);
    expect(keyAccepted('policy', 'harnesses')).toBe(false);
  });

  it('names each key its files and each area what a publish applies', () => {
    expect(draftAreas.map((a) => [a, draftFiles(a, a === 'chains' ? 'fast' : a), draftApply[a]])).toEqual([
      ['chains', ['chains/fast.yaml'], 'library_and_chains'],
      ['library', ['library.yaml'], 'library_and_chains'],
      ['harnesses', ['harnesses.yaml', 'policy.yaml'], 'policy_if_held'],
      ['repos', ['repos.yaml'], 'nothing'],
      ['policy', ['policy.yaml'], 'policy'],
      ['intake', ['intake.yaml'], 'intake'],
    ]);
  });
});
