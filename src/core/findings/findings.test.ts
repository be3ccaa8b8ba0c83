import { describe, expect, it } from 'vitest';
import { fixBrief } from './brief.js';
import { findingTag, hash16, logTail, parseFindings, syntheticFinding } from './identity.js';
import { roundOf, stuckReason, type FindingsRound } from './stuck.js';

const f = (message: string, extra: object = {}) => ({ severity: 'critical', message, ...extra });

describe('finding identity', () => {
  it('is a 16-character hash of source_plugin, file and message, leaving the line out', () => {
    const a = findingTag({ message: 'x', file: 'a.ts', source_plugin: 'p' });
    expect(a).toMatch(/^[0-9a-f]{16}$/);
    expect(findingTag({ message: 'x', file: 'a.ts', source_plugin: 'p' })).toBe(a);
    expect(findingTag({ message: 'x', file: 'b.ts', source_plugin: 'p' })).not.toBe(a);
    const [withLine] = parseFindings([f('x', { file: 'a.ts', source_plugin: 'p', line: 9 })], 't').findings;
    expect(withLine!.tag).toBe(a);
    expect(hash16('')).toBe('cbf29ce484222325');
  });

  it('takes same_as as the identity when a task names a tag it was shown', () => {
    expect(findingTag({ message: 'reworded', same_as: '0123456789abcdef' })).toBe('0123456789abcdef');
  });

  it('drops invalid entries and counts them', () => {
    const out = parseFindings(
      [f('ok'), { severity: 'huge', message: 'no' }, 'text', { severity: 'minor' }],
      'n.s.t',
    );
    expect(out.dropped).toBe(3);
    expect(out.findings).toHaveLength(1);
    expect(out.findings[0]).toMatchObject({ message: 'ok', task: 'n.s.t' });
    expect(parseFindings(undefined, 't')).toEqual({ findings: [], dropped: 0 });
  });

  it('makes one synthetic critical finding whose identity ignores the log', () => {
    const a = syntheticFinding('v.main.test', 'npm test', ['Error: boom']);
    const b = syntheticFinding('v.main.test', 'npm test', ['Error: other']);
    expect(a).toMatchObject({ severity: 'critical', synthetic: true, log_tail: ['Error: boom'] });
    expect(a.tag).toBe(b.tag);
  });

  it('prefers failure lines in a log tail', () => {
    expect(logTail('a\nb\nc\n')).toEqual(['a', 'b', 'c']);
    expect(logTail('ok\nFAILED one\nmore\nError: two\nend\n')).toEqual(['FAILED one', 'Error: two']);
    expect(logTail('1\n2\n3\n4\n5\n6\n7', 5)).toEqual(['3', '4', '5', '6', '7']);
  });
});

describe('stuck detection', () => {
  const tagged = (...msgs: string[]) => msgs.map((m) => parseFindings([f(m)], 't').findings[0]!);
  const history = (...rounds: [number, string[]][]): FindingsRound[] => {
    const out: FindingsRound[] = [];
    for (const [cycle, msgs] of rounds) out.push(roundOf(out, cycle, tagged(...msgs)));
    return out;
  };

  it('is stuck when the same set came back after a repair', () => {
    const h = history([0, ['a', 'b']], [1, ['b', 'a']]);
    expect(h[1]!.after_repair).toBe(true);
    expect(stuckReason(h)).toMatch(/^the same findings came back after a repair \(/);
  });

  it('is not stuck when the set changed, or when no repair ran between', () => {
    expect(stuckReason(history([0, ['a']], [1, ['b']]))).toBeNull();
    expect(stuckReason(history([0, ['a']], [0, ['a']]))).toBeNull();
    expect(stuckReason(history([0, ['a']], [1, []]))).toBeNull();
  });

  it('is stuck when one finding came back unchanged three cycles running', () => {
    const h = history([0, ['a', 'x']], [1, ['a', 'y']], [2, ['a', 'z']]);
    expect(stuckReason(h)).toBe(`finding ${h[0]!.findings[0]!.tag} came back unchanged three cycles running`);
  });
});

describe('the fix brief', () => {
  it('lists failed tasks, tagged findings marked REPEAT, the judge and every round', () => {
    const [a, b] = [parseFindings([f('a')], 't').findings[0]!, parseFindings([f('b')], 't').findings[0]!];
    const h: FindingsRound[] = [];
    h.push(roundOf(h, 0, [a]));
    h.push(roundOf(h, 1, [b]));
    h.push(roundOf(h, 2, [a, b]));
    const text = fixBrief({
      node: 'verify',
      cycle: 3,
      attempts: 3,
      failed: [{ task: 'verify.main.t', command: 'npm test', status: 'failed', session: 's1', log: '/l' }],
      findings: [a, b],
      concerns: 'look at a first',
      history: h,
    });
    expect(text).toContain('# Fix brief: verify, cycle 3 of 3');
    expect(text).toContain('- `verify.main.t` ended failed: `npm test` (session s1, log /l)');
    expect(text).toContain(`- [${a.tag}] REPEAT critical: a`);
    expect(text).toContain('look at a first');
    expect(text).toContain(`- round 3 (after a repair): ${a.tag}, ${b.tag}; fixed then returned: ${a.tag}`);
  });
});
