import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { eitherUses, libraryChanges, libraryUses } from './library-changes.js';

const PUBLISHED = parse(`
nodes:
  verification:
    description: Test, then review.
    steps:
      - id: tests
        tasks:
          - id: verify
            extends: verify
      - id: review
        tasks:
          - id: code_review
            extends: reviewer
tasks:
  base:
    kind: agent
    prompt: do it
  reviewer:
    extends: base
    prompt: review it
  verify:
    kind: builtin
    ref: jig.verify_changed_test_scopes
  implementer:
    kind: agent
    prompt: implement it
    steering: [standards]
  old:
    kind: agent
    prompt: the old way
steering:
  standards:
    instructions: Follow the house style.
  legacy:
    instructions: Keep the old API.
`);

const CHAINS = {
  quick: parse(`
nodes:
  - id: build
    tasks:
      - id: implement
        extends: implementer
`),
  full: parse(`
nodes:
  - id: implementation
    tasks:
      - id: implement
        extends: implementer
        steering: [legacy]
  - id: verify
    extends: verification
`),
  addon: parse(`
nodes:
  - id: x
    extends: acme:checks
    tasks:
      - id: a
        extends: acme:task
        steering: [acme:style]
`),
  other: 'not a mapping',
};

describe('libraryUses', () => {
  const uses = libraryUses(CHAINS, PUBLISHED);

  it('reads extends by where it sits, steering on tasks, and passes users on through library extends', () => {
    const refs = [
      'nodes.verification',
      'steps.tests',
      'tasks.implementer',
      'tasks.verify',
      'tasks.reviewer',
      'tasks.base',
      'tasks.old',
      'steering.standards',
      'steering.legacy',
      'nodes.acme:checks',
    ];
    expect(Object.fromEntries(refs.map((r) => [r, uses(r)]))).toEqual({
      'nodes.verification': ['full'],
      'steps.tests': [],
      'tasks.implementer': ['full', 'quick'],
      'tasks.verify': ['full'],
      'tasks.reviewer': ['full'],
      'tasks.base': ['full'],
      'tasks.old': [],
      'steering.standards': ['full', 'quick'],
      'steering.legacy': ['full'],
      'nodes.acme:checks': [],
    });
  });

  it('unions the published and the drafted uses', () => {
    const drafted = libraryUses({ quick: CHAINS.quick }, parse('tasks:\n  implementer:\n    extends: old\n'));
    const both = eitherUses(uses, drafted);
    expect([both('tasks.old'), both('tasks.base'), both('steering.standards')]).toEqual([
      ['quick'],
      ['full'],
      ['full', 'quick'],
    ]);
  });
});

describe('libraryChanges', () => {
  const uses = libraryUses(CHAINS, PUBLISHED);

  it('has none for the same library, nor for sections reordered', () => {
    expect(libraryChanges(PUBLISHED, structuredClone(PUBLISHED), uses)).toEqual([]);
    const reordered = parse(`
steering:
  legacy:
    instructions: Keep the old API.
  standards:
    instructions: Follow the house style.
tasks:
  old: { kind: agent, prompt: the old way }
  implementer: { kind: agent, prompt: implement it, steering: [standards] }
  verify: { kind: builtin, ref: jig.verify_changed_test_scopes }
  reviewer: { extends: base, prompt: review it }
  base: { kind: agent, prompt: do it }
nodes:
  verification:
    description: Test, then review.
    steps:
      - { id: tests, tasks: [{ id: verify, extends: verify }] }
      - { id: review, tasks: [{ id: code_review, extends: reviewer }] }
`);
    expect(libraryChanges(PUBLISHED, reordered, uses)).toEqual([]);
  });

  it('names added, changed, moved and removed components at library paths, each with the chains it reaches', () => {
    const draft = parse(`
nodes:
  verification:
    description: Review, then test.
    steps:
      - id: review
        description: Read the change.
        tasks:
          - id: code_review
            extends: reviewer
      - id: tests
        tasks:
          - id: verify
            extends: verify
      - id: lint
        tasks:
          - id: lint
            kind: subprocess
            run: npm run lint
tasks:
  base:
    kind: agent
    prompt: do it well
  reviewer:
    extends: base
    prompt: review it
  verify:
    kind: builtin
    ref: jig.verify_changed_test_scopes
  implementer:
    kind: agent
    prompt: implement it
    steering: [standards]
    model: opus
  docs:
    kind: agent
    prompt: document it
steering:
  standards:
    instructions: Follow the house style, strictly.
    description: House rules.
  security:
    instructions: Never log secrets.
`);
    expect(libraryChanges(PUBLISHED, draft, uses)).toEqual([
      {
        path: 'nodes.verification',
        kind: 'change',
        summary: 'changed description',
        fields: ['description'],
        reaches: ['full'],
      },
      {
        path: 'nodes.verification.review',
        kind: 'change',
        summary: 'moved; changed description',
        fields: ['description'],
        reaches: ['full'],
      },
      { path: 'nodes.verification.tests', kind: 'change', summary: 'moved', fields: [], reaches: ['full'] },
      { path: 'nodes.verification.lint', kind: 'add', summary: 'step added', reaches: ['full'] },
      { path: 'nodes.verification.lint.lint', kind: 'add', summary: 'task added', reaches: ['full'] },
      {
        path: 'tasks.base',
        kind: 'change',
        summary: 'changed prompt',
        fields: ['prompt'],
        reaches: ['full'],
      },
      {
        path: 'tasks.implementer',
        kind: 'change',
        summary: 'changed model',
        fields: ['model'],
        reaches: ['full', 'quick'],
      },
      { path: 'tasks.docs', kind: 'add', summary: 'task added', reaches: [] },
      { path: 'tasks.old', kind: 'remove', summary: 'task removed', reaches: [] },
      {
        path: 'steering.standards',
        kind: 'change',
        summary: 'changed description, instructions',
        fields: ['description', 'instructions'],
        reaches: ['full', 'quick'],
      },
      { path: 'steering.security', kind: 'add', summary: 'steering added', reaches: [] },
      { path: 'steering.legacy', kind: 'remove', summary: 'steering removed', reaches: ['full'] },
    ]);
  });

  it('compares the handlers and steps inside a library step and task as in a chain', () => {
    const before = parse(`
steps:
  checks:
    tasks:
      - { id: unit, kind: subprocess, run: npm test }
      - { id: types, kind: subprocess, run: tsc }
tasks:
  implementer:
    kind: agent
    prompt: implement it
    on_failure:
      tasks:
        - { id: retry, kind: agent, prompt: again }
`);
    const after = parse(`
steps:
  checks:
    tasks:
      - { id: types, kind: subprocess, run: tsc --noEmit }
tasks:
  implementer:
    kind: agent
    prompt: implement it
`);
    expect(libraryChanges(before, after, () => ['c'])).toEqual([
      {
        path: 'steps.checks.types',
        kind: 'change',
        // `unit` before it was removed: it shifted, it did not move.
        summary: 'changed run',
        fields: ['run'],
        reaches: ['c'],
      },
      { path: 'steps.checks.unit', kind: 'remove', summary: 'task removed', reaches: ['c'] },
      { path: 'tasks.implementer.on_failure', kind: 'remove', summary: 'on_failure removed', reaches: ['c'] },
      {
        path: 'tasks.implementer.on_failure.main.retry',
        kind: 'remove',
        summary: 'task removed',
        reaches: ['c'],
      },
    ]);
  });

  it('reads a file that is not a mapping as an empty library', () => {
    expect(libraryChanges('text', parse('tasks:\n  a: { kind: agent }\n'), () => [])).toEqual([
      { path: 'tasks.a', kind: 'add', summary: 'task added', reaches: [] },
    ]);
    expect(libraryChanges(parse('steering:\n  s: { instructions: x }\n'), null, () => [])).toEqual([
      { path: 'steering.s', kind: 'remove', summary: 'steering removed', reaches: [] },
    ]);
  });
});
