import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { git } from './git.js';
import { tempHome } from './server.js';

/*
 * Add-on collections for tests: a directory laid out as the docs say (`.jig/collection.json`,
 * `addons/<a>/.jig/addon.json`, library.yaml, profiles.yaml, chains/, skills/), optionally a git
 * repository of it, with helpers to change an add-on and commit.
 */

export interface AddonSpec {
  version?: string;
  requires?: Record<string, unknown>;
  manifest?: Record<string, unknown>;
  /** Relative path → text, inside the add-on's directory. */
  files?: Record<string, string>;
}

/** The `release` add-on of most tests: a library task and node, a chain with a gate, a profile and a skill. */
export function releaseAddon(
  over: { version?: string; prompt?: string; extra?: Record<string, string> } = {},
): AddonSpec {
  return {
    version: over.version ?? '1.0.0',
    requires: { jig: '2', harnesses: ['claude'], profiles: ['fast'] },
    files: {
      'library.yaml': `tasks:
  notes_writer:
    kind: agent
    harness: claude
    profile: careful
    skill: notes
    steering: [tone]
    prompt: ${over.prompt ?? 'Write the release notes for this change.'}
    policy:
      budget_usd: 2
nodes:
  notes:
    description: Writes the release notes.
    tasks:
      - id: write
        extends: notes_writer
steering:
  tone:
    instructions: Keep it short and plain.
`,
      'profiles.yaml': `profiles:
  careful:
    providers:
      claude: { model: sonnet, effort: high }
`,
      'chains/ship.yaml': `description: Release notes, then a person approves.
nodes:
  - id: notes
    extends: notes
  - id: approve
    kind: gate
    message: Read the notes and approve.
`,
      'skills/notes/SKILL.md':
        '---\nname: notes\n---\n# Release notes\nList user-visible changes, newest first.\n',
      ...over.extra,
    },
  };
}

export function writeAddon(root: string, name: string, spec: AddonSpec): void {
  const dir = join(root, 'addons', name);
  rmSync(dir, { recursive: true, force: true });
  const manifest = {
    $schema: 'https://jig.invalid/schemas/addon.schema.json',
    name,
    version: spec.version ?? '1.0.0',
    description: `The ${name} add-on`,
    author: { name: 'Ada', email: 'ada@example.com' },
    requires: spec.requires ?? { jig: '2' },
    ...spec.manifest,
  };
  const files = { '.jig/addon.json': `${JSON.stringify(manifest, null, 2)}\n`, ...spec.files };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
}

/** A collection directory named `name` holding the add-ons given. */
export function makeCollection(name: string, addons: Record<string, AddonSpec>, root?: string): string {
  const dir = root ?? join(tempHome('jig-coll-'), name);
  mkdirSync(join(dir, '.jig'), { recursive: true });
  writeFileSync(
    join(dir, '.jig', 'collection.json'),
    `${JSON.stringify(
      {
        name,
        description: `The ${name} collection`,
        owner: { name: 'Ada', email: 'ada@example.com' },
        addons: Object.keys(addons).map((a) => ({
          name: a,
          source: `./addons/${a}`,
          description: `${a} things`,
        })),
      },
      null,
      2,
    )}\n`,
  );
  for (const [a, spec] of Object.entries(addons)) writeAddon(dir, a, spec);
  return dir;
}

/** The collection made a git repository with one commit; answers its `file://` URL. */
export function gitCollection(dir: string): string {
  git(dir, 'init', '-q', '-b', 'main');
  commitAll(dir, 'initial');
  return `file://${dir}`;
}

export function commitAll(dir: string, message: string): string {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', message);
  return git(dir, 'rev-parse', 'HEAD');
}
