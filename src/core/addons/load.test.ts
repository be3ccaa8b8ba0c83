import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateConfigSet } from '../config/validate-set.js';
import { loadAddonSet, type AddonInput } from './load.js';
import type { AddonFiles } from './types.js';

const DEFAULTS = join(import.meta.dirname, '..', '..', '..', 'defaults', 'config');
const read = (f: string) => readFileSync(join(DEFAULTS, f), 'utf8');

const manifest = (over: Record<string, unknown> = {}) =>
  JSON.stringify(
    {
      name: 'release',
      version: '1.0.0',
      requires: { jig: '2', harnesses: ['claude'], profiles: ['fast'] },
      ...over,
    },
    null,
    2,
  );

const LIBRARY = `tasks:
  notes_writer:
    kind: agent
    harness: claude
    profile: careful
    skill: notes
    steering: [tone]
    prompt: Write the release notes.
  quick:
    extends: notes_writer
    profile: fast
nodes:
  notes:
    tasks:
      - id: write
        extends: notes_writer
steering:
  tone:
    instructions: Be brief.
`;
const CHAIN = `nodes:
  - id: notes
    extends: notes
  - id: approve
    kind: gate
`;
const PROFILES = `profiles:
  careful:
    providers:
      claude: { model: opus }
`;

function files(over: Partial<AddonFiles> = {}): AddonFiles {
  return {
    manifest: manifest(),
    library: LIBRARY,
    profiles: PROFILES,
    chains: { ship: CHAIN },
    skills: { notes: '# Notes\nWrite notes.\n' },
    ...over,
  };
}
const DIGEST = `sha256:${'a'.repeat(64)}`;
const input = (over: Partial<AddonFiles> = {}, ns = 'release'): AddonInput => ({
  namespace: ns,
  digest: DIGEST,
  files: files(over),
  enabled: true,
});
const facts = { version: '2.0.0', harnesses: ['claude', 'codex'], profiles: ['fast', 'strong'] };

describe('loadAddonSet', () => {
  it('qualifies every name with the namespace and offers chains, components, profiles and skills', () => {
    const set = loadAddonSet([input()], facts);
    expect(set.addons.release!.problems).toEqual([]);
    expect(Object.keys(set.chains)).toEqual(['release:ship']);
    const chain = set.chains['release:ship']!.resolved!;
    expect(chain.addons).toEqual({ release: DIGEST });
    const task = chain.nodes[0]!.kind === 'exec' ? chain.nodes[0]!.steps[0]!.tasks[0]! : null;
    expect(task).toMatchObject({
      kind: 'agent',
      extends: 'release:notes_writer',
      profile: 'release:careful',
      skill: 'release:notes',
      steering: ['release:tone'],
    });
    expect(Object.keys(set.profiles)).toEqual(['release:careful']);
    expect([...set.skills]).toEqual(['release:notes']);
    expect(set.lookup('tasks', 'release', 'quick')).toBeDefined();
  });

  it('installed under another namespace, the same files answer to it', () => {
    const set = loadAddonSet([input({}, 'rel')], facts);
    expect(set.addons.rel!.problems).toEqual([]);
    expect(Object.keys(set.chains)).toEqual(['rel:ship']);
    expect(set.lookup('tasks', 'rel', 'quick')).toBeDefined();
    expect(set.lookup('tasks', 'release', 'quick')).toBeUndefined();
  });

  it('refuses subprocess tasks, permissions, foreign names and harnesses it does not require, at their lines', () => {
    const lib = `tasks:
  cmd:
    kind: subprocess
    run: make release
  agent:
    kind: agent
    harness: codex
    prompt: x
    extends: other:base
    policy:
      grants: [git-push]
      budget_usd: 2
`;
    const set = loadAddonSet([input({ library: lib, chains: {} })], facts);
    expect(set.addons.release!.problems.map((p) => `${p.file}:${p.line}: ${p.message}`)).toEqual([
      'addons/release/library.yaml:3: `kind: subprocess`: an add-on cannot carry subprocess tasks',
      'addons/release/library.yaml:4: `run` runs a command: an add-on cannot carry subprocess tasks',
      "addons/release/library.yaml:7: harness `codex` is not in `requires.harnesses` (`claude`): an add-on's tasks run only on the harnesses it requires",
      'addons/release/library.yaml:9: extends `other:base` names add-on `other`: an add-on is self-contained and uses only its own components',
      'addons/release/library.yaml:11: `grants` is a permission: an add-on carries limits, never permissions',
    ]);
    expect(set.chains).toEqual({});
    expect(set.lookup('tasks', 'release', 'agent')).toBeUndefined();
  });

  it('checks requires against the instance: version, harnesses and profiles', () => {
    const set = loadAddonSet(
      [
        input({
          manifest: manifest({ requires: { jig: '3', harnesses: ['claude', 'amp2'], profiles: ['fast'] } }),
        }),
      ],
      facts,
    );
    expect(set.addons.release!.problems.map((p) => p.message)).toEqual([
      '`requires.jig`: needs Jig 3, this is 2.0.0',
      '`requires.harnesses`: harnesses.yaml defines no `amp2`',
    ]);
  });

  it('an instance chain extends an add-on node, and pins its digest', () => {
    const texts = {
      library: read('library.yaml'),
      chains: { mine: 'nodes:\n  - id: notes\n    extends: release:notes\n' },
      harnesses: read('harnesses.yaml'),
      addons: { version: '2.0.0', installed: [input()] },
    };
    const set = validateConfigSet(texts);
    expect(set.chains.mine!.problems).toEqual([]);
    expect(set.chains.mine!.resolved!.addons).toEqual({ release: DIGEST });
    const disabled = validateConfigSet({
      ...texts,
      addons: { version: '2.0.0', installed: [{ ...input(), enabled: false }] },
    });
    expect(disabled.chains.mine!.problems.map((p) => p.message)).toEqual([
      expect.stringContaining('extends `release:notes`'),
    ]);
  });
});
