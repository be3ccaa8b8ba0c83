import { join } from 'node:path';
import { parse } from 'yaml';
import { validateConfigSet, type ConfigSet, type ConfigTexts } from '../../src/core/config/validate-set.js';
import { isObj, OpRefused } from '../../src/core/drafts/ops/context.js';
import { Workspace } from '../../src/core/drafts/ops/workspace.js';
import { textsWithDraft } from '../../src/core/drafts/texts.js';
import { readConfigDir } from '../../src/runtime/config/config-dir.js';

/*
 * A config set for the structural ops' tests (add_node, add_step, add_task, add_handler,
 * remove_handler, move, remove): the seeded settings files, a small library with a component of
 * each kind, and one chain `work` using them. It has no problem, so a test can assert exactly
 * the problems an op leaves.
 */

export const LIBRARY = `nodes:
  builder:
    kind: exec
    description: Builds.
    tasks:
      - id: make
        extends: maker
    on_failure:
      tasks:
        - id: clean
          extends: maker
    fix_loop:
      tasks:
        - id: repair
          extends: maker
    escalation:
      extends: helper
  derived:
    extends: builder
    description: Builds more.
  looped:
    kind: exec
    steps:
      - id: check
        tasks:
          - id: test
            extends: maker
    fix_loop:
      tasks:
        - id: repair
          extends: maker
      judge:
        id: judge
        extends: judger
    on_base_changed:
      restart_from: looped
      on_conflict:
        tasks:
          - id: resolve
            extends: helper
  review_gate:
    kind: gate
    message: Look at it.
    auto_review:
      id: reviewer
      extends: reviewer
steps:
  lint:
    tasks:
      - id: lint
        extends: maker
tasks:
  maker:
    kind: subprocess
    argv: [make]
  author:
    kind: agent
    harness: claude
    produces: spec
    prompt: Write the spec.
    steering:
      - house
  helper:
    kind: agent
    harness: claude
    prompt: Help.
  judger:
    kind: agent
    harness: claude
    prompt: Judge.
  reviewer:
    kind: agent
    harness: claude
    prompt: Review.
steering:
  house:
    instructions: Be neat.
`;

export const CHAIN = `description: Work.
nodes:
  - id: spec
    kind: exec
    tasks:
      - id: author
        extends: author
  - id: approve
    kind: gate
    message: Approve?
    artifact: spec
    reject_to: spec
  - id: build
    extends: builder
  - id: verify
    kind: exec
    steps:
      - id: unit
        tasks:
          - id: run
            kind: subprocess
            argv: [test]
      - id: lint
        extends: lint
    fix_loop:
      tasks:
        - id: fix
          kind: subprocess
          argv: [fix]
    on_base_changed:
      restart_from: build
  - id: looped
    extends: looped
  - id: check
    extends: review_gate
    reject_to: build
`;

export const CHAIN_FILE = 'chains/work.yaml';

const seeded = readConfigDir(join(import.meta.dirname, '../../defaults/config'), null).texts;
export const TEXTS: ConfigTexts = { ...seeded, library: LIBRARY, chains: { work: CHAIN } };

export const chainWs = (texts: ConfigTexts = TEXTS): Workspace => new Workspace('chains', 'work', texts);
export const libraryWs = (texts: ConfigTexts = TEXTS): Workspace =>
  new Workspace('library', 'library', texts);

/** The detail of the refusal `fn` throws (fails when it does not refuse). */
export function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof OpRefused) return e.detail;
    throw e;
  }
  throw new Error('the op was not refused');
}

/** The files the ops changed, parsed back (null: deleted). */
export function changed(w: Workspace): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [f, t] of Object.entries(w.changedTexts())) out[f] = t === null ? null : parse(t);
  return out;
}

/** The chain document as the ops left it. */
export const chainDoc = (w: Workspace): Record<string, unknown> => {
  const doc = w.doc(CHAIN_FILE);
  if (!isObj(doc)) throw new Error('the chain is not a mapping');
  return doc;
};

/** The node of the chain with id `id`, as the ops left it. */
export function nodeOf(w: Workspace, id: string): unknown {
  const nodes = chainDoc(w).nodes;
  return Array.isArray(nodes) ? nodes.find((n) => isObj(n) && n.id === id) : undefined;
}

/** Ids of the chain's nodes, in order. */
export function nodeIds(w: Workspace): unknown[] {
  const nodes = chainDoc(w).nodes;
  return Array.isArray(nodes) ? nodes.map((n) => (isObj(n) ? n.id : n)) : [];
}

/** The library as the ops left it, at a dotted path (`nodes.builder`). */
export function libAt(w: Workspace, path: string): unknown {
  let cur: unknown = w.doc('library.yaml');
  for (const seg of path.split('.')) cur = isObj(cur) ? cur[seg] : undefined;
  return cur;
}

/** The config set a reload would see with the workspace's changes laid over. */
export const reload = (w: Workspace, base: ConfigTexts = TEXTS): ConfigSet =>
  validateConfigSet(textsWithDraft(base, w.changedTexts()));

/** `path.field: message` of each problem, for whole-list assertions. */
export const problemsOf = (set: ConfigSet): string[] =>
  set.problems.map((p) => `${p.file} ${[p.path, p.field].filter(Boolean).join('.')}: ${p.message}`);
