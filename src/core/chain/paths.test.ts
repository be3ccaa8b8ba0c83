import { describe, expect, it } from 'vitest';
import { describeChainPath, describeLibraryPath } from './paths.js';

const chain = {
  nodes: [
    { id: 'spec', tasks: [{ id: 'author' }] },
    {
      id: 'verification',
      steps: [{ id: 'review', tasks: [{ id: 'code_review' }] }],
      fix_loop: { tasks: [{ id: 'repair' }], judge: { id: 'judge' } },
      escalation: { id: 'helper' },
      on_base_changed: { on_conflict: { steps: [{ id: 'fix', tasks: [{ id: 'resolve' }] }] } },
    },
    { id: 'final', kind: 'gate', auto_review: {} },
  ],
};

describe('canonical paths', () => {
  it.each([
    [['nodes', 0, 'tasks', 0, 'prompt'], 'spec.main.author', 'prompt'],
    [
      ['nodes', 1, 'steps', 0, 'tasks', 0, 'policy', 'budget_usd'],
      'verification.review.code_review',
      'policy.budget_usd',
    ],
    [['nodes', 1, 'fix_loop', 'tasks', 0, 'profile'], 'verification.fix_loop.main.repair', 'profile'],
    [['nodes', 1, 'fix_loop', 'judge', 'skill'], 'verification.fix_loop.judge', 'skill'],
    [['nodes', 1, 'fix_loop', 'max_attempts'], 'verification.fix_loop', 'max_attempts'],
    [['nodes', 1, 'escalation', 'prompt'], 'verification.escalation.helper', 'prompt'],
    [
      ['nodes', 1, 'on_base_changed', 'on_conflict', 'steps', 0, 'tasks', 0, 'run'],
      'verification.on_base_changed.on_conflict.fix.resolve',
      'run',
    ],
    [['nodes', 1, 'on_base_changed', 'restart_from'], 'verification', 'on_base_changed.restart_from'],
    [['nodes', 2, 'auto_review', 'prompt'], 'final.auto_review', 'prompt'],
    [['description'], '', 'description'],
  ] as const)('%j → %s %s', (path, want, field) => {
    expect(describeChainPath(chain, path)).toEqual({ path: want, field });
  });

  it('start library paths with the section', () => {
    const lib = { nodes: { verification: chain.nodes[1] }, tasks: { implementer: {} } };
    expect(describeLibraryPath(lib, ['tasks', 'implementer', 'prompt'])).toEqual({
      path: 'tasks.implementer',
      field: 'prompt',
    });
    expect(describeLibraryPath(lib, ['nodes', 'verification', 'steps', 0, 'tasks', 0, 'skill'])).toEqual({
      path: 'nodes.verification.review.code_review',
      field: 'skill',
    });
  });
});
