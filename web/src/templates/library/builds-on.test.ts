import { describe, expect, it } from 'vitest';
import type { LibraryComponent } from '../../../../src/contract/templates.js';
import { buildsOn } from './builds-on.js';
import { agentTasks } from './chain-tasks.js';

const comp = (ref: string, written: unknown): LibraryComponent => {
  const [section = 'tasks', name = ''] = ref.split('.');
  return {
    ref,
    section: section === 'nodes' || section === 'steps' || section === 'steering' ? section : 'tasks',
    name,
    written,
    resolved: null,
    used_by: { chains: [], repos: [] },
    problems: [],
  };
};

describe('buildsOn', () => {
  const all = [
    comp('nodes.impl', {
      kind: 'exec',
      tasks: [
        { id: 'a', extends: 'writer' },
        { id: 'b', extends: 'gone' },
      ],
    }),
    comp('tasks.writer', { kind: 'agent', extends: 'base', steering: ['house', 'missing'] }),
    comp('tasks.base', { kind: 'agent' }),
    comp('steering.house', { instructions: 'x' }),
    // A steering entry named like a task is not what `extends` names.
    comp('steering.writer', { instructions: 'y' }),
  ];
  it('finds the extends inside a node and leaves out names the library lacks', () => {
    expect(buildsOn(all[0]!, all)).toEqual(['tasks.writer']);
  });
  it('tells a task base from a steering entry of the same name', () => {
    expect(buildsOn(all[1]!, all)).toEqual(['tasks.base', 'steering.house']);
  });
  it('answers nothing for a component naming none', () => {
    expect(buildsOn(all[2]!, all)).toEqual([]);
  });
});

describe('agentTasks', () => {
  it('lists the agent tasks of a resolved chain in walk order, slots included', () => {
    const chain = {
      nodes: [
        {
          id: 'spec',
          path: 'spec',
          steps: [{ path: 'spec.main', tasks: [{ kind: 'agent', path: 'spec.main.author' }] }],
        },
        {
          id: 'verify',
          path: 'verify',
          steps: [{ path: 'verify.main', tasks: [{ kind: 'subprocess', path: 'verify.main.test' }] }],
          fix_loop: { judge: { kind: 'agent', path: 'verify.fix_loop.judge' } },
        },
      ],
    };
    expect(agentTasks(chain)).toEqual(['spec.main.author', 'verify.fix_loop.judge']);
  });
});
