import { describe, expect, it } from 'vitest';
import { PolicyFile } from '../../contract/config/policy.js';
import { loopLimits } from './loops.js';

const chain = (nodePolicy?: object, loopMax?: number) => ({
  nodes: [
    {
      id: 'verification',
      kind: 'exec',
      policy: nodePolicy,
      fix_loop: loopMax ? { max_attempts: loopMax } : {},
    },
  ],
});

describe('loopLimits', () => {
  it('falls back to policy.yaml `default:`', () => {
    expect(loopLimits(chain(), 'verification', PolicyFile.parse({}))).toEqual({
      key: 'verification.fix_loop',
      attempts: { value: 3, source: 'default' },
      wall_clock_s: { value: 3600, source: 'default' },
    });
  });
  it('takes the narrowest layer and clamps to the maxima', () => {
    const policy = PolicyFile.parse({
      loops: { 'verification.fix_loop': { attempts: 4, wall_clock_s: 600 } },
      maxima: { max_attempts: 5, timeout_minutes: 5 },
    });
    expect(loopLimits(chain(), 'verification', policy)).toMatchObject({
      attempts: { value: 4, source: 'loops' },
      wall_clock_s: { value: 300, source: 'maxima' },
    });
    expect(loopLimits(chain({ max_attempts: 2 }), 'verification', policy)!.attempts).toEqual({
      value: 2,
      source: 'node',
    });
    expect(loopLimits(chain({ max_attempts: 2 }, 9), 'verification', policy)!.attempts).toEqual({
      value: 5,
      source: 'maxima',
    });
  });
  it('answers null for a node without a fix loop', () => {
    expect(loopLimits({ nodes: [{ id: 'a', kind: 'exec' }] }, 'a', null)).toBeNull();
  });
});
