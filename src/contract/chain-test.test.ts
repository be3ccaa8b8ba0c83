import { describe, expect, it } from 'vitest';
import { AgentScript, answerFor, CommandStubs, stubFor } from './chain-test.js';

describe('a chain test script', () => {
  const script = AgentScript.parse({
    tasks: {
      'a.main.x': { status: 'failed' },
      'a.main.y': [{ cost_usd: 1 }, { status: 'needs_context', question: 'q' }],
    },
    default: { verdict: 'continue' },
  });

  it('answers every session of a task from one answer, a list attempt by attempt (the last repeating)', () => {
    expect([0, 3].map((n) => answerFor(script, 'a.main.x', n))).toEqual([
      { status: 'failed' },
      { status: 'failed' },
    ]);
    expect([0, 1, 5].map((n) => answerFor(script, 'a.main.y', n))).toEqual([
      { status: 'done', cost_usd: 1 },
      { status: 'needs_context', question: 'q' },
      { status: 'needs_context', question: 'q' },
    ]);
    expect(answerFor(script, 'b.main.z', 0)).toEqual({ status: 'done', verdict: 'continue' });
    expect(answerFor(AgentScript.parse({}), 'b.main.z', 0)).toBeNull();
  });

  it('names the field a bad script gets wrong', () => {
    const r = AgentScript.safeParse({ tasks: { 'a.main.x': { status: 'ok' } } });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['tasks', 'a.main.x']);
    expect(AgentScript.safeParse({ tasks: { 'a.main.x': { cost: 1 } } }).success).toBe(false);
  });

  it('stubs a command session by session, the last repeating; a task not stubbed has none', () => {
    const stubs = CommandStubs.parse({ 'b.tests.unit': [{ exit_code: 1, output: 'FAIL' }, {}] });
    expect([0, 1, 4].map((n) => stubFor(stubs, 'b.tests.unit', n))).toEqual([
      { exit_code: 1, output: 'FAIL' },
      { exit_code: 0, output: '' },
      { exit_code: 0, output: '' },
    ]);
    expect(stubFor(stubs, 'b.tests.other', 0)).toBeNull();
    const bad = CommandStubs.safeParse({ 'b.tests.unit': { exit_code: 256 } });
    expect(bad.error?.issues[0]?.path).toEqual(['b.tests.unit', 'exit_code']);
  });
});
