import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { aDraft } from '../../fixtures.js';
import { chainParts } from './shape.js';
import { chainPaths, readScript, starterScript } from './starter-script.js';

const FILE = 'chains/ship.yaml';
const agent = (id: string) => ({ id, kind: 'agent', prompt: `Do ${id}.` });

/** A chain as the editor draws it: agent and command tasks, a fix loop with a judge, two gates. */
const parts = chainParts(
  aDraft(
    'chains',
    {},
    {
      model: {
        [FILE]: {
          nodes: [
            { id: 'spec', kind: 'exec', tasks: [agent('author')] },
            { id: 'spec_ok', kind: 'gate', message: 'Right?' },
            {
              id: 'build',
              kind: 'exec',
              steps: [
                { id: 'main', tasks: [agent('code'), { id: 'unit', kind: 'subprocess', run: 'npm test' }] },
                {
                  id: 'review',
                  tasks: [agent('check'), { id: 'merged', kind: 'forge', target: 'pr_merged' }],
                },
              ],
              fix_loop: { tasks: [agent('repair')], judge: agent('judge') },
            },
            { id: 'ship', kind: 'gate', auto_review: agent('reviewer') },
          ],
        },
      },
    },
  ).result,
  FILE,
);

describe('chainPaths', () => {
  it('lists agent tasks (steps, handlers, slots), command tasks and gates in walk order', () => {
    expect(chainPaths(parts)).toEqual({
      agents: [
        'spec.main.author',
        'build.main.code',
        'build.review.check',
        'build.fix_loop.main.repair',
        'build.fix_loop.judge',
        'ship.auto_review',
      ],
      commands: ['build.main.unit'],
      gates: ['spec_ok', 'ship'],
    });
  });
});

describe('starterScript', () => {
  it('answers every agent task done, approves every gate, expects the item to complete', () => {
    const text = starterScript(parts);
    expect(parse(text)).toEqual({
      tasks: {
        'spec.main.author': {},
        'build.main.code': {},
        'build.review.check': {},
        'build.fix_loop.main.repair': {},
        'build.fix_loop.judge': {},
        'ship.auto_review': {},
      },
      gates: { spec_ok: 'approve', ship: 'approve' },
      expect: { completes: true },
    });
    // The command tasks that run for real are named in a comment, with the way to stub one.
    expect(text).toContain('# Command tasks run for real in a clone of the repository: build.main.unit.');
    expect(text).toContain('tasks:\n  spec.main.author: {}\n');
  });

  it('writes empty sections for a chain without tasks or gates, and no command comment', () => {
    const text = starterScript([]);
    expect(parse(text)).toEqual({ tasks: {}, gates: {}, expect: { completes: true } });
    expect(text).not.toContain('Command tasks');
  });
});

describe('readScript', () => {
  it('reads YAML and JSON; an empty script is the empty one', () => {
    expect(readScript('gates: {ship: approve}\n')).toEqual({ script: { gates: { ship: 'approve' } } });
    expect(readScript('{\n\t"tasks": {"build.main.code": {"cost_usd": 0.5}}\n}')).toEqual({
      script: { tasks: { 'build.main.code': { cost_usd: 0.5 } } },
    });
    expect(readScript('# nothing yet\n')).toEqual({ script: {} });
  });

  it('names the line of text that does not parse, and refuses a list or a value', () => {
    expect(readScript('tasks:\n  a: 1\n   b: 2\n')).toEqual({
      error: 'Line 2, column 6: Nested mappings are not allowed in compact mappings',
    });
    expect(readScript('gates:\n  ship: approve\n  ship: approve\n')).toEqual({
      error: 'Line 3, column 3: Map keys must be unique',
    });
    expect(readScript('- approve\n')).toEqual({
      error: 'The script must be a mapping (tasks:, gates:, expect:, …), not a list or a single value.',
    });
  });
});
