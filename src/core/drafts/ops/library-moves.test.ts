import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { validateConfigSet, type ConfigTexts } from '../../config/validate-set.js';
import { textsWithDraft } from '../texts.js';
import { isObj, OpRefused } from './context.js';
import { addComponent, moveToLibrary } from './library-moves.js';
import { locateInChain } from './locate.js';
import { Workspace } from './workspace.js';

// The config Jig seeds a new home with: a library and three chains that all resolve.
const DEFAULTS = join(import.meta.dirname, '../../../../defaults/config');
const read = (name: string): string => readFileSync(join(DEFAULTS, name), 'utf8');
const defaults: ConfigTexts = {
  library: read('library.yaml'),
  chains: Object.fromEntries(
    readdirSync(join(DEFAULTS, 'chains')).map((f) => [f.replace(/\.yaml$/, ''), read(`chains/${f}`)]),
  ),
  harnesses: read('harnesses.yaml'),
  policy: read('policy.yaml'),
  repos: read('repos.yaml'),
  intake: read('intake.yaml'),
};

// A chain with a component of every kind a path can name, each resolving without a problem.
const CUSTOM = `description: Every kind of component.
nodes:
  - id: build
    kind: exec
    description: Build it.
    steps:
      - id: compile
        tasks:
          - id: make
            kind: subprocess
            argv: [make]
            on_failure:
              tasks:
                - id: clean
                  kind: subprocess
                  run: make clean
    fix_loop:
      tasks:
        - id: repair
          extends: repair_verification
      judge:
        id: judge
        extends: strict_judge
        prompt: Judge harder.
      max_attempts: 3
    escalation:
      extends: repair_verification
  - id: approve
    kind: gate
    message: Approve?
    reject_to: build
    auto_review:
      id: reviewer
      extends: code_review
  - id: inherited_gate
    extends: a_gate
`;
// The default library plus a gate node, for a chain node that is a gate only through `extends`.
const library: unknown = parse(defaults.library!);
if (!isObj(library) || !isObj(library.nodes)) throw new Error('the default library has no nodes');
library.nodes.a_gate = { kind: 'gate', message: 'Look.' };
const libraryText = stringify(library);
const published: ConfigTexts = {
  ...defaults,
  library: libraryText,
  chains: { ...defaults.chains, custom: CUSTOM },
};

const chainWs = (key: string, texts: ConfigTexts = published) => new Workspace('chains', key, texts);
const libraryWs = (texts: ConfigTexts = published) => new Workspace('library', 'library', texts);

const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    if (e instanceof OpRefused) return e.detail;
    throw e;
  }
  throw new Error('the op was not refused');
};

const changed = (w: Workspace): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const [f, t] of Object.entries(w.changedTexts())) out[f] = t === null ? null : parse(t);
  return out;
};

const section = (doc: unknown, name: string): unknown => (isObj(doc) ? doc[name] : undefined);

/**
 * A resolved chain with the component at `path` built from library component `name`: resolving
 * keeps the nearest `extends`, the one thing a move changes.
 */
function builtFrom(resolved: unknown, path: string, name: string): unknown {
  const copy = structuredClone(resolved);
  let found = 0;
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (isObj(v)) {
      if (v.path === path) {
        v.extends = name;
        found++;
      }
      Object.values(v).forEach(visit);
    }
  };
  visit(copy);
  if (found !== 1) throw new Error(`${found} components at ${path} in the resolved chain`);
  return copy;
}

/** The config set a reload would see with the workspace's changes laid over. */
const reload = (w: Workspace, base: ConfigTexts = published) =>
  validateConfigSet(textsWithDraft(base, w.changedTexts()));

describe('move_to_library', () => {
  const before = validateConfigSet(published);

  it('starts from a config set with no problem', () => {
    expect(before.problems).toEqual([]);
  });

  it('moves an exec node into `nodes.<name>`, leaving a use of it that resolves as before', () => {
    const w = chainWs('default');
    expect(moveToLibrary(w, { op: 'move_to_library', path: 'spec', name: 'spec_writing' })).toEqual({
      path: 'nodes.spec_writing',
    });
    const out = changed(w);
    expect(Object.keys(out).sort()).toEqual(['chains/default.yaml', 'library.yaml']);
    const chain = out['chains/default.yaml'];
    expect(isObj(chain) && Array.isArray(chain.nodes) && chain.nodes[0]).toEqual({
      id: 'spec',
      extends: 'spec_writing',
    });
    expect(section(section(out['library.yaml'], 'nodes'), 'spec_writing')).toEqual({
      kind: 'exec',
      description: 'An agent writes the specification for the work item.',
      tasks: [{ id: 'author', extends: 'spec_author' }],
    });
    // The other library components are untouched.
    expect(section(out['library.yaml'], 'tasks')).toEqual(section(library, 'tasks'));

    const after = reload(w);
    expect(after.problems).toEqual([]);
    expect(after.chains.default!.resolved).toEqual(
      builtFrom(before.chains.default!.resolved, 'spec', 'spec_writing'),
    );
  });

  it('keeps the `extends` a node already had in the library component', () => {
    const w = chainWs('merge-request');
    moveToLibrary(w, { op: 'move_to_library', path: 'merge_request_feedback', name: 'feedback' });
    const lib = changed(w)['library.yaml'];
    const moved = section(section(lib, 'nodes'), 'feedback');
    expect(isObj(moved) && moved.extends).toBe('post_draft_feedback');
    const chain = w.doc('chains/merge-request.yaml');
    const node =
      isObj(chain) && Array.isArray(chain.nodes)
        ? chain.nodes.find((n) => isObj(n) && n.id === 'merge_request_feedback')
        : null;
    expect(node).toEqual({ id: 'merge_request_feedback', extends: 'feedback' });

    const after = reload(w);
    expect(after.problems).toEqual([]);
    expect(after.chains['merge-request']!.resolved).toEqual(
      builtFrom(before.chains['merge-request']!.resolved, 'merge_request_feedback', 'feedback'),
    );
  });

  it('moves a task into `tasks.<name>`, its own on_failure with it', () => {
    const w = chainWs('custom');
    expect(moveToLibrary(w, { op: 'move_to_library', path: 'build.compile.make', name: 'make' })).toEqual({
      path: 'tasks.make',
    });
    const out = changed(w);
    expect(section(section(out['library.yaml'], 'tasks'), 'make')).toEqual({
      kind: 'subprocess',
      argv: ['make'],
      on_failure: { tasks: [{ id: 'clean', kind: 'subprocess', run: 'make clean' }] },
    });
    const chain = out['chains/custom.yaml'];
    const build = isObj(chain) && Array.isArray(chain.nodes) ? chain.nodes[0] : null;
    expect(build).toMatchObject({ steps: [{ id: 'compile', tasks: [{ id: 'make', extends: 'make' }] }] });

    const after = reload(w);
    expect(after.problems).toEqual([]);
    expect(after.chains.custom!.resolved).toEqual(
      builtFrom(before.chains.custom!.resolved, 'build.compile.make', 'make'),
    );
  });

  it('moves tasks inside handlers and slot tasks, each resolving as before', () => {
    const cases: [string, string, unknown][] = [
      ['build.compile.make.on_failure.main.clean', 'clean', { id: 'clean', extends: 'clean' }],
      ['build.fix_loop.main.repair', 'fix_repair', { id: 'repair', extends: 'fix_repair' }],
      ['build.fix_loop.judge', 'picky_judge', { id: 'judge', extends: 'picky_judge' }],
      // An escalation written with no id stays without one: its path keeps the default `escalate`.
      ['build.escalation.escalate', 'escalate_repair', { extends: 'escalate_repair' }],
      ['approve.auto_review', 'gate_review', { id: 'reviewer', extends: 'gate_review' }],
    ];
    for (const [path, name, left] of cases) {
      const w = chainWs('custom');
      const { id: _id, ...fields } = locateInChain(parse(CUSTOM), path)!.value;
      expect(moveToLibrary(w, { op: 'move_to_library', path, name })).toEqual({ path: `tasks.${name}` });
      expect(locateInChain(w.doc('chains/custom.yaml'), path)?.value).toEqual(left);
      expect(section(section(w.doc('library.yaml'), 'tasks'), name)).toEqual(fields);
      const after = reload(w);
      expect(after.problems).toEqual([]);
      expect(after.chains.custom!.resolved).toEqual(builtFrom(before.chains.custom!.resolved, path, name));
    }
  });

  it('writes the judge without its id, keeping what it overrode over its own base', () => {
    const w = chainWs('custom');
    moveToLibrary(w, { op: 'move_to_library', path: 'build.fix_loop.judge', name: 'picky_judge' });
    expect(section(section(w.doc('library.yaml'), 'tasks'), 'picky_judge')).toEqual({
      extends: 'strict_judge',
      prompt: 'Judge harder.',
    });
  });

  it('creates the section in library order when the library has none, or no library at all', () => {
    const texts = { ...published, library: 'steering:\n  house:\n    instructions: Be neat.\n' };
    const w = chainWs('custom', texts);
    moveToLibrary(w, {
      op: 'move_to_library',
      path: 'build.compile.make.on_failure.main.clean',
      name: 'clean',
    });
    const lib = w.doc('library.yaml');
    expect(Object.keys(isObj(lib) ? lib : {})).toEqual(['tasks', 'steering']);

    const none = chainWs('custom', { ...published, library: null });
    moveToLibrary(none, {
      op: 'move_to_library',
      path: 'build.compile.make.on_failure.main.clean',
      name: 'clean',
    });
    expect(changed(none)['library.yaml']).toEqual({
      tasks: { clean: { kind: 'subprocess', run: 'make clean' } },
    });
  });

  it('is refused for a step, the tasks shorthand step and a gate', () => {
    expect(
      refusal(() =>
        moveToLibrary(chainWs('custom'), { op: 'move_to_library', path: 'build.compile', name: 'x' }),
      ),
    ).toMatch(/^`build\.compile` is a step: only an exec node or a task can move to the library$/);
    expect(
      refusal(() =>
        moveToLibrary(chainWs('default'), { op: 'move_to_library', path: 'spec.main', name: 'x' }),
      ),
    ).toMatch(/^`spec\.main` is a step/);
    expect(
      refusal(() => moveToLibrary(chainWs('custom'), { op: 'move_to_library', path: 'approve', name: 'x' })),
    ).toMatch(/^`approve` is a gate: only an exec node or a task can move to the library$/);
    // A gate through the library node it extends.
    expect(
      refusal(() =>
        moveToLibrary(chainWs('custom'), { op: 'move_to_library', path: 'inherited_gate', name: 'x' }),
      ),
    ).toMatch(/^`inherited_gate` is a gate/);
  });

  it('is refused for the chain, a handler and on_base_changed', () => {
    const refused = (key: string, path: string) =>
      refusal(() => moveToLibrary(chainWs(key), { op: 'move_to_library', path, name: 'x' }));
    expect(refused('custom', '')).toMatch(/^path "" is the chain: only an exec node or a task/);
    expect(refused('custom', 'build.fix_loop')).toMatch(
      /^`build\.fix_loop` is a handler \(`fix_loop`\): only/,
    );
    expect(refused('custom', 'build.compile.make.on_failure')).toMatch(
      /^`build\.compile\.make\.on_failure` is a handler/,
    );
    expect(refused('merge-request', 'merge_request_feedback.on_base_changed')).toMatch(
      /^`merge_request_feedback\.on_base_changed` is an `on_base_changed` block/,
    );
  });

  it('is refused when nothing is at path', () => {
    expect(
      refusal(() =>
        moveToLibrary(chainWs('custom'), { op: 'move_to_library', path: 'build.nope', name: 'x' }),
      ),
    ).toMatch(/^nothing at path `build\.nope`$/);
    expect(
      refusal(() => moveToLibrary(chainWs('fresh'), { op: 'move_to_library', path: 'spec', name: 'x' })),
    ).toMatch(/^nothing at path `spec`$/);
  });

  it('is refused when the name is not allowed', () => {
    const refused = (name: string) =>
      refusal(() =>
        moveToLibrary(chainWs('default'), { op: 'move_to_library', path: 'spec.main.author', name }),
      );
    expect(refused('Author')).toMatch(/^library task name "Author" is not an identifier/);
    expect(refused('ns:author')).toMatch(/is not an identifier/);
    expect(refused('main')).toMatch(/^library task name `main` is reserved/);
  });

  it('is refused when the section already has the name', () => {
    expect(
      refusal(() =>
        moveToLibrary(chainWs('default'), {
          op: 'move_to_library',
          path: 'spec.main.author',
          name: 'spec_author',
        }),
      ),
    ).toMatch(/^library\.yaml already has `tasks\.spec_author`$/);
    expect(
      refusal(() =>
        moveToLibrary(chainWs('default'), { op: 'move_to_library', path: 'spec', name: 'verification' }),
      ),
    ).toMatch(/^library\.yaml already has `nodes\.verification`$/);
  });

  it('is refused when library.yaml or its section is not a mapping, which writing would wipe', () => {
    const move = (lib: string) =>
      refusal(() =>
        moveToLibrary(chainWs('default', { ...published, library: lib }), {
          op: 'move_to_library',
          path: 'spec',
          name: 'x',
        }),
      );
    expect(move('- a\n')).toMatch(/^library\.yaml is not a mapping/);
    expect(move('nodes: [a]\n')).toMatch(/^library\.yaml `nodes` is not a mapping/);
  });
});

describe('add_component', () => {
  const add = (sectionName: string, name: string, kind?: string, texts: ConfigTexts = published) => {
    const w = libraryWs(texts);
    const answer = addComponent(w, {
      op: 'add_component',
      section: sectionName,
      name,
      ...(kind ? { kind } : {}),
    });
    return { w, answer, written: section(section(w.doc('library.yaml'), sectionName), name) };
  };
  /** The problems a reload shows in library.yaml at the new component. */
  const problemsAt = (w: Workspace, path: string) =>
    reload(w)
      .files['library.yaml']!.problems.filter((p) => p.path === path || p.path.startsWith(`${path}.`))
      .map((p) => `${p.field ?? ''}: ${p.message}`);

  it('adds an empty exec node by default, a problem until it has a step', () => {
    const { w, answer, written } = add('nodes', 'blank');
    expect(answer).toEqual({ path: 'nodes.blank' });
    expect(written).toEqual({ kind: 'exec' });
    expect(Object.keys(changed(w))).toEqual(['library.yaml']);
    expect(reload(w).problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      'nodes.blank: an exec node needs `tasks` or `steps`',
    ]);
  });

  it('adds a gate for kind gate', () => {
    const { w, answer, written } = add('nodes', 'check', 'gate');
    expect(answer).toEqual({ path: 'nodes.check' });
    expect(written).toEqual({ kind: 'gate' });
    expect(reload(w).problems).toEqual([]);
  });

  it('adds an agent task by default, and a task of the kind given', () => {
    const { w, answer, written } = add('tasks', 'reviewer');
    expect(answer).toEqual({ path: 'tasks.reviewer' });
    expect(written).toEqual({ kind: 'agent' });
    expect(problemsAt(w, 'tasks.reviewer')).toEqual(['prompt: an agent task needs a prompt']);
    for (const kind of ['subprocess', 'builtin', 'forge'])
      expect(add('tasks', 't', kind).written).toEqual({ kind });
  });

  it('adds a step with no tasks, which a reload shows as a problem', () => {
    const { w, answer, written } = add('steps', 'checks');
    expect(answer).toEqual({ path: 'steps.checks' });
    expect(written).toEqual({ tasks: [] });
    expect(problemsAt(w, 'steps.checks')).toEqual(['tasks: a step needs at least one task']);
  });

  it('adds steering with empty instructions, a problem until written', () => {
    const { w, answer, written } = add('steering', 'tone');
    expect(answer).toEqual({ path: 'steering.tone' });
    expect(written).toEqual({ instructions: '' });
    expect(problemsAt(w, 'steering.tone')).toEqual(['instructions: steering needs instructions']);
  });

  it('creates a missing section in library order, and a missing library', () => {
    const { w } = add('steps', 'checks', undefined, { ...published, library: 'tasks: {}\nnodes: {}\n' });
    expect(changed(w)['library.yaml']).toEqual({ nodes: {}, steps: { checks: { tasks: [] } }, tasks: {} });
    const lib = w.doc('library.yaml');
    expect(Object.keys(isObj(lib) ? lib : {})).toEqual(['nodes', 'steps', 'tasks']);

    const none = add('tasks', 'reviewer', undefined, { ...published, library: null });
    expect(changed(none.w)).toEqual({ 'library.yaml': { tasks: { reviewer: { kind: 'agent' } } } });
  });

  it('is refused for a section that is not one', () => {
    expect(refusal(() => add('chains', 'x'))).toMatch(
      /^section `chains` is not a library section: `nodes`, `steps`, `tasks`, `steering`$/,
    );
  });

  it('is refused when the name is not allowed or taken', () => {
    expect(refusal(() => add('tasks', '9lives'))).toMatch(/^library task name "9lives" is not an identifier/);
    expect(refusal(() => add('nodes', 'fix_loop'))).toMatch(/^library node name `fix_loop` is reserved/);
    expect(refusal(() => add('tasks', 'implementer'))).toMatch(
      /^library\.yaml already has `tasks\.implementer`$/,
    );
    expect(refusal(() => add('nodes', 'verification'))).toMatch(
      /^library\.yaml already has `nodes\.verification`$/,
    );
    // Only its own section counts: a node may share a task's name.
    expect(add('nodes', 'implementer').answer).toEqual({ path: 'nodes.implementer' });
  });

  it('is refused for a kind that is not a node or task kind', () => {
    expect(refusal(() => add('nodes', 'x', 'agent'))).toMatch(
      /^kind `agent` is not a node kind: `exec` or `gate`$/,
    );
    expect(refusal(() => add('tasks', 'x', 'gate'))).toMatch(
      /^kind `gate` is not a task kind: `agent`, `subprocess`, `builtin`, `forge`$/,
    );
  });

  it('is refused for a kind given for steps or steering', () => {
    expect(refusal(() => add('steps', 'x', 'exec'))).toMatch(/^kind is not taken for `steps`/);
    expect(refusal(() => add('steering', 'x', 'agent'))).toMatch(/^kind is not taken for `steering`/);
  });

  it('is refused when library.yaml or the section is not a mapping', () => {
    expect(refusal(() => add('tasks', 'x', undefined, { ...published, library: '- a\n' }))).toMatch(
      /^library\.yaml is not a mapping/,
    );
    expect(refusal(() => add('tasks', 'x', undefined, { ...published, library: 'tasks: 3\n' }))).toMatch(
      /^library\.yaml `tasks` is not a mapping/,
    );
  });
});
