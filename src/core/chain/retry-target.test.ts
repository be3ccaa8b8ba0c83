import { describe, expect, it } from 'vitest';
import type { ResolvedChain } from './model.js';
import { retryTarget } from './retry-target.js';

const task = (path: string) => ({ id: path.split('.').at(-1)!, kind: 'subprocess', path, run: 'true' });
const chain: ResolvedChain = {
  id: 'c',
  nodes: [
    {
      id: 'build',
      kind: 'exec',
      path: 'build',
      steps: [{ id: 'main', path: 'build.main', tasks: [task('build.main.make')] }],
    },
    { id: 'approve', kind: 'gate', path: 'approve' },
    {
      id: 'verify',
      kind: 'exec',
      path: 'verify',
      steps: [
        { id: 'lint', path: 'verify.lint', tasks: [task('verify.lint.eslint')] },
        { id: 'test', path: 'verify.test', tasks: [task('verify.test.unit'), task('verify.test.e2e')] },
      ],
    },
    { id: 'ship', kind: 'exec', path: 'ship', steps: [] },
  ],
};

describe('retryTarget', () => {
  it('without a path reruns the stopped node from its first step', () => {
    expect(retryTarget(chain, 2)).toEqual({ ok: true, target: { node: 2, step: 0, task: null } });
  });

  it('a node, a step or a task at or before the stopped node', () => {
    expect(retryTarget(chain, 2, 'build')).toEqual({ ok: true, target: { node: 0, step: 0, task: null } });
    expect(retryTarget(chain, 2, 'verify.test')).toEqual({
      ok: true,
      target: { node: 2, step: 1, task: null },
    });
    expect(retryTarget(chain, 2, 'verify.test.e2e')).toEqual({
      ok: true,
      target: { node: 2, step: 1, task: 'verify.test.e2e' },
    });
  });

  it('refuses forward, gates, and names that are not there, saying why', () => {
    expect(retryTarget(chain, 2, 'ship')).toEqual({
      ok: false,
      reason: 'ship comes after the node the item stopped on; a retry goes back (use skip to go forward)',
    });
    expect(retryTarget(chain, 2, 'approve')).toEqual({
      ok: false,
      reason: 'approve is a gate; a retry reruns an exec node',
    });
    expect(retryTarget(chain, 2, 'nope')).toEqual({ ok: false, reason: "no node nope in the item's chain" });
    expect(retryTarget(chain, 2, 'verify.fix_loop')).toEqual({
      ok: false,
      reason: "no step fix_loop among verify's own steps (lint, test)",
    });
    expect(retryTarget(chain, 2, 'verify.test.nope')).toEqual({
      ok: false,
      reason: 'no task nope in verify.test',
    });
  });
});
