import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { validateConfigSet, type ConfigTexts } from '../../config/validate-set.js';
import { textsWithDraft } from '../texts.js';
import { newChain } from './chain-file.js';
import { OpRefused } from './context.js';
import { copyComponent } from './library-moves.js';
import { Workspace } from './workspace.js';

/* "Copy to my library": an add-on's chain or component copied into your files, names qualified. */

const DEFAULTS = join(import.meta.dirname, '../../../../defaults/config');
const read = (name: string): string => readFileSync(join(DEFAULTS, name), 'utf8');
const addon = {
  namespace: 'release',
  digest: `sha256:${'b'.repeat(64)}`,
  enabled: true,
  files: {
    manifest: JSON.stringify({
      name: 'release',
      version: '1.0.0',
      requires: { jig: '2', harnesses: ['claude'] },
    }),
    library: `tasks:
  base:
    kind: agent
    harness: claude
    prompt: Base.
  notes_writer:
    extends: base
    skill: notes
    prompt: Write the notes.
nodes:
  notes:
    tasks:
      - id: write
        extends: notes_writer
`,
    profiles: null,
    chains: {
      ship: 'description: Ship it.\nnodes:\n  - id: notes\n    extends: notes\n  - id: ok\n    kind: gate\n',
    },
    skills: { notes: '# Notes\n' },
  },
};
const published: ConfigTexts = {
  library: read('library.yaml'),
  chains: Object.fromEntries(
    readdirSync(join(DEFAULTS, 'chains')).map((f) => [f.replace(/\.yaml$/, ''), read(`chains/${f}`)]),
  ),
  harnesses: read('harnesses.yaml'),
  policy: read('policy.yaml'),
  repos: read('repos.yaml'),
  intake: read('intake.yaml'),
  addons: { version: '2.0.0', installed: [addon] },
};

const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    if (e instanceof OpRefused) return e.detail;
    throw e;
  }
  throw new Error('the op was not refused');
};

describe('copy to my library', () => {
  it('new_chain from an add-on chain copies it with its names qualified, and the copy resolves', () => {
    const w = new Workspace('chains', 'my-ship', published);
    newChain(w, { op: 'new_chain', from: 'release:ship' });
    const texts = w.changedTexts();
    expect(parse(texts['chains/my-ship.yaml']!)).toEqual({
      description: 'Ship it.',
      nodes: [
        { id: 'notes', extends: 'release:notes' },
        { id: 'ok', kind: 'gate' },
      ],
    });
    const set = validateConfigSet(textsWithDraft(published, texts));
    expect(set.chains['my-ship']!.problems).toEqual([]);
    expect(set.chains['my-ship']!.resolved!.addons).toEqual({ release: addon.digest });
  });

  it('copy_component copies a library task under its own name or another, refusing a taken one', () => {
    const w = new Workspace('library', 'library', published);
    expect(
      copyComponent(w, { op: 'copy_component', section: 'tasks', from: 'release:notes_writer' }),
    ).toEqual({
      path: 'tasks.notes_writer',
    });
    expect(
      copyComponent(w, {
        op: 'copy_component',
        section: 'tasks',
        from: 'release:notes_writer',
        name: 'mine',
      }),
    ).toEqual({ path: 'tasks.mine' });
    const lib = parse(w.changedTexts()['library.yaml']!);
    expect(lib.tasks.mine).toEqual({
      extends: 'release:base',
      skill: 'release:notes',
      prompt: 'Write the notes.',
    });
    const set = validateConfigSet(textsWithDraft(published, w.changedTexts()));
    expect(set.library.problems).toEqual([]);
    expect(
      refusal(() =>
        copyComponent(w, { op: 'copy_component', section: 'tasks', from: 'release:notes_writer' }),
      ),
    ).toMatch(/notes_writer/);
  });

  it('names what there is when the add-on has no such component', () => {
    const w = new Workspace('library', 'library', published);
    expect(
      refusal(() => copyComponent(w, { op: 'copy_component', section: 'nodes', from: 'release:nope' })),
    ).toBe('from `release:nope` names no add-on node (installed: `release:notes`)');
    const c = new Workspace('chains', 'x', published);
    expect(refusal(() => newChain(c, { op: 'new_chain', from: 'release:nope' }))).toBe(
      'from `release:nope` names no add-on chain (installed: `release:ship`)',
    );
  });
});
