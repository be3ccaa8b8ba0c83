import { describe, expect, it } from 'vitest';
import { applyCommand } from './checker.js';

describe('applyCommand', () => {
  it('installs a newer version (naming a channel off stable), else restarts onto the one installed', () => {
    expect(applyCommand('stable', true, false)).toBe('jig admin update --yes');
    expect(applyCommand('rc', true, true)).toBe('jig admin update --channel rc --yes');
    expect(applyCommand('stable', false, true)).toBe('jig admin restart');
    expect(applyCommand('beta', false, false)).toBeNull();
  });
});
