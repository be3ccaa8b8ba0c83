import { describe, expect, it } from 'vitest';
import { impactText } from './impact.js';

describe('impactText', () => {
  it('says what a publish of each area reaches', () => {
    expect(impactText({ tasks: 2, chains: ['default', 'quick'] })).toBe(
      '2 agent tasks in default, quick change which harness they may run on.',
    );
    expect(impactText({ tasks: 0, chains: [] })).toBe('No task changes which harness it may run on.');
    expect(impactText({ chains: [], repos: [] })).toBe('It reaches chains none.');
    expect(impactText({ running: 1, repos: ['/r'] })).toBe('1 item running.');
    expect(impactText({ running: { '/r': 3 } })).toBe('3 items not ended in /r.');
    expect(impactText({ running: {} })).toBeNull();
    expect(impactText(null)).toBeNull();
  });
});
