import { describe, expect, it } from 'vitest';
import { decideToolCall, entryMatches, plainGitVerb, type GatePolicy } from './permission-gate.js';

const policy = (p: Partial<GatePolicy>): GatePolicy => ({
  allowed_tools: null,
  deny_tools: [],
  grants: [],
  ask: false,
  ...p,
});
const bash = (command: string) => ({ names: ['Bash'], input: { command } });

describe('the permission gate', () => {
  it('denies what deny_tools names before anything else, even a listed or granted call', () => {
    expect(
      decideToolCall(bash('git commit -m x'), policy({ deny_tools: ['Bash'], grants: ['git-commit'] })),
    ).toEqual({ decision: 'deny', rule: 'deny_tools', reason: 'policy denies Bash (deny_tools)' });
    expect(
      decideToolCall(
        { names: ['Write', 'Edit'], input: {} },
        policy({ allowed_tools: ['Write', 'Edit'], deny_tools: ['Edit'] }),
      ),
    ).toEqual({ decision: 'deny', rule: 'deny_tools', reason: 'policy denies Edit (deny_tools)' });
  });

  it('allows a grant only for exactly one plain git invocation', () => {
    const p = policy({ allowed_tools: ['Read'], grants: ['git-commit'] });
    expect(decideToolCall(bash('git commit -q -m "add x"'), p)).toEqual({
      decision: 'allow',
      rule: 'grant',
      reason: 'policy grants git-commit',
    });
    for (const c of ['git commit -m x && rm -rf /', 'git commit -m $(id)', 'git push', 'gitx commit'])
      expect(decideToolCall(bash(c), p)).toMatchObject({ decision: 'deny', rule: 'not_listed' });
  });

  it('has no opinion without an allowed_tools list (the CLI decides as it would alone)', () => {
    expect(decideToolCall(bash('ls'), policy({}))).toEqual({
      decision: 'none',
      rule: 'no_allowlist',
      reason: 'policy sets no allowed_tools',
    });
  });

  it('allows a call every name of which is listed, patterns included', () => {
    const p = policy({ allowed_tools: ['Read', 'Bash(npm test:*)', 'Write', 'Edit'] });
    expect(decideToolCall(bash('npm test -- --run'), p)).toMatchObject({ decision: 'allow', rule: 'listed' });
    expect(decideToolCall({ names: ['Write', 'Edit'], input: {} }, p)).toMatchObject({ decision: 'allow' });
    expect(decideToolCall(bash('npm install'), p)).toEqual({
      decision: 'deny',
      rule: 'not_listed',
      reason: 'Bash is not in allowed_tools',
    });
    expect(decideToolCall({ names: ['Write', 'NotebookEdit'], input: {} }, p)).toMatchObject({
      decision: 'deny',
    });
  });

  it("sends a call the list leaves out to a person on a person's item", () => {
    expect(decideToolCall(bash('curl x'), policy({ allowed_tools: ['Read'], ask: true }))).toEqual({
      decision: 'ask',
      rule: 'not_listed',
      reason: 'Bash is not in allowed_tools: a person decides',
    });
  });
});

describe('entries and git invocations', () => {
  it('reads the pattern forms', () => {
    expect(entryMatches('Bash', 'Bash', {})).toBe(true);
    expect(entryMatches('Bash(git commit:*)', 'Bash', { command: 'git commit' })).toBe(true);
    expect(entryMatches('Bash(git commit:*)', 'Bash', { command: 'git commitx' })).toBe(false);
    expect(entryMatches('Bash(npm test)', 'Bash', { command: ' npm test ' })).toBe(true);
    expect(entryMatches('Bash(npm test)', 'Bash', { command: ['npm', 'test'] })).toBe(true);
    expect(entryMatches('Bash(npm test)', 'Read', { command: 'npm test' })).toBe(false);
    expect(entryMatches('Bash(x:*)', 'Bash', {})).toBe(false);
  });

  it('finds one plain git verb or none', () => {
    expect(plainGitVerb('git commit -m msg')).toBe('commit');
    expect(plainGitVerb('  git   rebase main')).toBe('rebase');
    expect(plainGitVerb('git -C /etc commit')).toBeNull();
    expect(plainGitVerb('git commit; ls')).toBeNull();
    expect(plainGitVerb('git commit\nls')).toBeNull();
    expect(plainGitVerb('echo git commit')).toBeNull();
  });
});
