import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import { git } from './git.js';
import { http, tempHome, type JigProcess } from './server.js';

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
  over: {
    version?: string;
    prompt?: string;
    /** The body of skills/notes/SKILL.md (after its front matter). */
    skill?: string;
    /** The `tone` steering's instructions. */
    tone?: string;
    /** The model of the `careful` profile on claude. */
    model?: string;
    extra?: Record<string, string>;
  } = {},
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
    instructions: ${over.tone ?? 'Keep it short and plain.'}
`,
      'profiles.yaml': `profiles:
  careful:
    providers:
      claude: { model: ${over.model ?? 'sonnet'}, effort: high }
`,
      'chains/ship.yaml': `description: Release notes, then a person approves.
nodes:
  - id: notes
    extends: notes
  - id: approve
    kind: gate
    message: Read the notes and approve.
`,
      'skills/notes/SKILL.md': `---\nname: notes\n---\n${over.skill ?? '# Release notes\nList user-visible changes, newest first.\n'}`,
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

/** A chain for the `release` add-on whose first node is a gate: an item waits there before its agent runs. */
export const HELD_CHAIN = `description: A person lets it start; release notes; a person approves.
nodes:
  - id: hold
    kind: gate
    message: Let it start.
  - id: notes
    extends: notes
  - id: approve
    kind: gate
    message: Read the notes and approve.
`;

/** `POST /api/addons/collections`: the collection's info (201 asserted). */
export async function addCollection(jig: Pick<JigProcess, 'url'>, source: string): Promise<any> {
  const r = await http(`${jig.url}/api/addons/collections`, { method: 'POST', body: { source } });
  expect(r.status, r.text).toBe(201);
  return r.json;
}

/** Reads the install review and installs with its digest (200 and 201 asserted). */
export async function installAddon(
  jig: Pick<JigProcess, 'url'>,
  addon: string,
  collection: string,
  as?: string,
): Promise<{ review: any; installed: any }> {
  const body = { addon, collection, ...(as ? { as } : {}) };
  const review = await http(`${jig.url}/api/addons/review`, { method: 'POST', body });
  expect(review.status, review.text).toBe(200);
  const installed = await http(`${jig.url}/api/addons`, {
    method: 'POST',
    body: { ...body, review: review.json.review },
  });
  expect(installed.status, installed.text).toBe(201);
  return { review: review.json, installed: installed.json };
}

/** Reads the update review of a namespace and applies it with its digest (200 and 200 asserted). */
export async function updateAddon(
  jig: Pick<JigProcess, 'url'>,
  namespace: string,
): Promise<{ review: any; updated: any }> {
  const review = await http(`${jig.url}/api/addons/${namespace}/update`);
  expect(review.status, review.text).toBe(200);
  const updated = await http(`${jig.url}/api/addons/${namespace}/update`, {
    method: 'POST',
    body: { review: review.json.review },
  });
  expect(updated.status, updated.text).toBe(200);
  return { review: review.json, updated: updated.json };
}

/** config/addons.lock of a home, parsed. */
export function readLock(home: string): any {
  return JSON.parse(readFileSync(join(home, 'config', 'addons.lock'), 'utf8'));
}

/** The hex of a `sha256:` digest: the name of its folder in the content store. */
export const hexOf = (digest: string): string => digest.replace(/^sha256:/, '');

/** The version folders of a namespace in the content store (`$JIG_HOME/addons/<ns>/`), sorted; [] when none. */
export function versionFolders(home: string, namespace: string): string[] {
  try {
    return readdirSync(join(home, 'addons', namespace)).sort();
  } catch {
    return [];
  }
}

/** The chain an item froze at its first start, read from the store (the API shows its nodes only). */
export function frozenChain(home: string, id: string): any {
  const db = new Database(join(home, 'run', 'jig.db'), { readonly: true });
  try {
    const row = db.prepare('SELECT chain_definition FROM work_items WHERE id = ?').get(id) as
      { chain_definition: string | null } | undefined;
    return row?.chain_definition ? JSON.parse(row.chain_definition) : null;
  } finally {
    db.close();
  }
}
