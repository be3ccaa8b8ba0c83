import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { chainChanges } from './chain-changes.js';

const PUBLISHED = parse(`
description: Two nodes.
nodes:
  - id: build
    tasks:
      - id: code
        kind: agent
        prompt: write it
      - id: lint
        kind: subprocess
        run: npm run lint
    fix_loop:
      tasks:
        - id: repair
          kind: agent
          prompt: fix it
      judge:
        id: judge
        kind: agent
        prompt: judge it
  - id: review
    kind: gate
`);

describe('chainChanges', () => {
  it('has none for the same chain', () => {
    expect(chainChanges(PUBLISHED, structuredClone(PUBLISHED))).toEqual([]);
  });

  it('names added, changed, moved and removed components at their canonical paths, and the chain’s keys', () => {
    const draft = parse(`
description: Three nodes.
policy: { budget_usd: 5 }
nodes:
  - id: build
    tasks:
      - id: lint
        kind: subprocess
        run: npm run lint
      - id: code
        kind: agent
        prompt: write it well
        model: opus
    fix_loop:
      tasks:
        - id: repair
          kind: agent
          prompt: fix it
  - id: docs
    tasks:
      - id: write
        kind: agent
        prompt: document it
  - id: review
    kind: gate
    message: look
`);
    expect(chainChanges(PUBLISHED, draft)).toEqual([
      { path: '', kind: 'change', summary: 'changed description, policy', fields: ['description', 'policy'] },
      { path: 'build.main.lint', kind: 'change', summary: 'moved', fields: [] },
      {
        path: 'build.main.code',
        kind: 'change',
        summary: 'moved; changed model, prompt',
        fields: ['model', 'prompt'],
      },
      { path: 'docs', kind: 'add', summary: 'node added' },
      { path: 'docs.main.write', kind: 'add', summary: 'task added' },
      // Shifted by the node added before it, not moved: its place among the shared nodes is the same.
      { path: 'review', kind: 'change', summary: 'changed message', fields: ['message'] },
      { path: 'build.fix_loop.judge', kind: 'remove', summary: 'task removed' },
    ]);
  });

  it('reads a file that is not a mapping as a chain with nothing in it', () => {
    expect(chainChanges(null, parse('nodes:\n  - id: a\n'))).toEqual([
      { path: 'a', kind: 'add', summary: 'node added' },
    ]);
    expect(chainChanges(parse('nodes:\n  - id: a\n'), 'text')).toEqual([
      { path: 'a', kind: 'remove', summary: 'node removed' },
    ]);
  });
});
