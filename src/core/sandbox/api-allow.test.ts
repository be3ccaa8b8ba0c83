import { describe, expect, it } from 'vitest';
import { sandboxApiVerdict } from './api-allow.js';

const ok = (m: string, u: string, esc = false) => sandboxApiVerdict(m, u, 'abc123', esc).ok;

describe('sandboxApiVerdict', () => {
  it('reads of its own item and the health pass; another item, lists and settings do not', () => {
    expect(ok('GET', '/api/health')).toBe(true);
    expect(ok('GET', '/api/work-items/abc123')).toBe(true);
    expect(ok('GET', '/api/work-items/abc123/events?limit=5')).toBe(true);
    expect(ok('GET', '/api/work-items/other')).toBe(false);
    expect(ok('GET', '/api/work-items/abc1234')).toBe(false);
    expect(ok('GET', '/api/work-items')).toBe(false);
    expect(ok('GET', '/api/settings/access')).toBe(false);
  });

  it("a worker's writes pass; a gate decision, a review or a move do not", () => {
    for (const w of ['progress', 'threads', 'mr-labels', 'permission-asks', 'permission-check'])
      expect(ok('POST', `/api/work-items/abc123/${w}`), w).toBe(true);
    for (const w of [
      'gates/spec/approve',
      'review',
      'pause',
      'retry',
      'budget/raise',
      'draft/ops',
      'threads/t1/resolve',
    ])
      expect(ok('POST', `/api/work-items/abc123/${w}`), w).toBe(false);
    expect(ok('DELETE', '/api/work-items/abc123')).toBe(false);
    expect(ok('POST', '/api/work-items/other/progress')).toBe(false);
  });

  it('an escalation turn may also move its item, never decide its gate', () => {
    for (const w of [
      'pause',
      'resume',
      'retry',
      'skip',
      'complete',
      'cancel',
      'budget/raise',
      'threads/t1/resolve',
    ])
      expect(ok('POST', `/api/work-items/abc123/${w}`, true), w).toBe(true);
    expect(ok('POST', '/api/work-items/abc123/gates/spec/approve', true)).toBe(false);
    expect(sandboxApiVerdict('POST', '/api/work-items/abc123/review', 'abc123', true)).toEqual({
      ok: false,
      reason:
        'a sandboxed task may not POST /api/work-items/abc123/review: it reaches its own item only, as a worker does',
    });
  });
});
