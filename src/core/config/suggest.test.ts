import { describe, expect, it } from 'vitest';
import { didYouMean, suggest } from './suggest.js';

describe('suggest', () => {
  it('names a close known word', () => {
    expect(suggest('promt', ['prompt', 'profile'])).toBe('prompt');
    expect(didYouMean('skipable', ['skippable'])).toBe('; did you mean `skippable`?');
  });
  it('stays quiet for a far or exact word', () => {
    expect(suggest('banana', ['prompt', 'profile'])).toBeUndefined();
    expect(suggest('prompt', ['prompt'])).toBeUndefined();
    expect(didYouMean('x', [])).toBe('');
  });
});
