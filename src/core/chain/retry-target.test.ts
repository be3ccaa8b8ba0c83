import { describe, expect, it } from 'vitest';
import type { ResolvedChain } from './model.js';
import { retryTarget } from './retry-target.js';

const task = (path: string) => ({
  id: path.split('.').at(-1)!,
  kind: 'subprocess' as const,
  path,
  run: 'true',
});
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

  it('within the stopped node, not past the first step that did not pass', () => {
    expect(retryTarget(chain, 2, 'verify.test', 0)).toEqual({
      ok: false,
      reason:
        'verify.test comes after verify.lint, which did not pass; a retry goes back (use skip to go forward)',
    });
    expect(retryTarget(chain, 2, 'verify.lint', 0)).toEqual({
      ok: true,
      target: { node: 2, step: 0, task: null },
    });
    // An earlier node is not bounded by the stopped node's progress.
    expect(retryTarget(chain, 2, 'build.main', 0)).toEqual({
      ok: true,
      target: { node: 0, step: 0, task: null },
    });
  });

  it('without a path, a gate or the end of the chain has nothing to rerun', () => {
    expect(retryTarget(chain, 1)).toEqual({
      ok: false,
      reason: 'the item waits at gate approve: approve or reject it',
    });
    expect(retryTarget(chain, 4)).toEqual({
      ok: false,
      reason: 'the item is past its last node; there is nothing to rerun',
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
