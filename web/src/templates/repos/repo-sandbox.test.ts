import { describe, expect, it } from 'vitest';
import { repoSandboxOf } from './repo-sandbox.js';

const answer = (entry: Record<string, unknown>) => ({ repos: [entry], detected: [] });

describe("a repository's sandbox in the repos draft's answer", () => {
  it('is its own block, where the entry sets one', () => {
    const a = answer({
      index: 2,
      path: '/r',
      resolved: { sandbox: { kind: 'bubblewrap', network: { allow: ['a.test'] } } },
      sources: { sandbox: 'repo' },
    });
    expect(repoSandboxOf(a, '/r')).toEqual({
      index: 2,
      own: true,
      block: { kind: 'bubblewrap', network: { allow: ['a.test'] } },
    });
  });

  it('is the instance default where it sets none, and none where policy.yaml sets none either', () => {
    const dflt = answer({
      index: 0,
      path: '/r',
      resolved: { sandbox: { kind: 'none' } },
      sources: { sandbox: 'default' },
    });
    expect(repoSandboxOf(dflt, '/r')).toEqual({ index: 0, own: false, block: { kind: 'none' } });
    const none = answer({
      index: 0,
      path: '/r',
      resolved: { sandbox: null },
      sources: { sandbox: 'default' },
    });
    expect(repoSandboxOf(none, '/r')).toEqual({ index: 0, own: false, block: null });
  });

  it('is unknown for another path or an answer of another shape', () => {
    const a = answer({ index: 0, path: '/r', resolved: { sandbox: null }, sources: {} });
    expect(repoSandboxOf(a, '/other')).toBeNull();
    expect(repoSandboxOf(null, '/r')).toBeNull();
    expect(repoSandboxOf({ repos: [{ path: '/r' }] }, '/r')).toBeNull();
  });
});
