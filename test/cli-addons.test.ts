import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatReview } from '../src/cli/commands/admin-addon-review.js';
import type { AddonReview } from '../src/contract/addon-review.js';
import { harnessesYaml } from './helpers/agents.js';
import {
  commitAll,
  gitCollection,
  makeCollection,
  releaseAddon,
  writeAddon,
  type AddonSpec,
} from './helpers/addons.js';
import { cleanupAll, http, runJig, startJig, tempHome, type JigProcess } from './helpers/server.js';

/*
 * `jig admin addon …` against a real server and real collection directories and git repositories
 * (docs/cli-guide.md, ADR 0020). `validate` needs no server; the rest call /api/addons.
 */

afterAll(cleanupAll);

/** An environment where the CLI sees only this home. */
function envFor(home: string): Record<string, string> {
  return { JIG_HOME: home, JIG_URL: '', JIG_TOKEN: '', JIG_CONFIG_DIR: '', JIG_TEMPLATES_DIR: '' };
}

async function start(): Promise<JigProcess> {
  const home = tempHome();
  mkdirSync(join(home, 'config'), { recursive: true });
  writeFileSync(join(home, 'config', 'harnesses.yaml'), harnessesYaml());
  return startJig({ home });
}

const addon = (...args: string[]) => ['admin', 'addon', ...args];
const SKIPPED = 'skipped: requires: no Jig home to check it against\n';

/** The release add-on's install review, as `install` prints it. */
const INSTALL_REVIEW = (as = 'release') => `Install release 1.0.0 from acme as ${as}

Reach:
  gate chain ${as}:ship › approve
  harness claude
  limit budget_usd 2 in library task ${as}:notes_writer
  model sonnet on claude in profile ${as}:careful
  profile fast (the instance's)

Content:
  prompt · library task ${as}:notes_writer · library.yaml:
    Write the release notes for this change.
  steering · steering ${as}:tone · library.yaml:
    Keep it short and plain.
  skill · skill ${as}:notes · skills/notes/SKILL.md:
    ---
    name: notes
    ---
    # Release notes
    List user-visible changes, newest first.
`;

describe('jig admin addon validate', () => {
  it('prints name, version and the digest the server pins; skipped lines with no home; requires checked with one', async () => {
    const coll = makeCollection('acme', { release: releaseAddon() });
    const dir = join(coll, 'addons', 'release');
    const noHome = tempHome();
    const r = await runJig(addon('validate', dir), envFor(noHome));
    expect(r.code, r.stderr).toBe(0);

    const jig = await start();
    const added = await http(`${jig.url}/api/addons/collections`, { method: 'POST', body: { source: coll } });
    expect(added.status, added.text).toBe(201);
    const review = await http(`${jig.url}/api/addons/review`, {
      method: 'POST',
      body: { addon: 'release', collection: 'acme' },
    });
    expect(review.status, review.text).toBe(200);
    const digest = review.json.to.digest as string;
    expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(r.stdout).toBe(`release 1.0.0 ${digest}\n${SKIPPED}`);

    // A collection root: each add-on it lists, its files named from the root.
    const all = await runJig(addon('validate', coll), envFor(noHome));
    expect(all).toMatchObject({ code: 0, stdout: `release 1.0.0 ${digest}\n${SKIPPED}` });

    const json = await runJig(addon('validate', dir, '--json'), envFor(noHome));
    expect(JSON.parse(json.stdout)).toEqual({
      dir,
      kind: 'addon',
      checked_against: null,
      problems: [],
      addons: [
        {
          dir,
          name: 'release',
          version: '1.0.0',
          digest,
          problems: [],
          skipped: ['requires: no Jig home to check it against'],
        },
      ],
    });

    // The server's home has claude and the `fast` profile: nothing is skipped.
    expect(await runJig(addon('validate', dir), envFor(jig.home))).toMatchObject({
      code: 0,
      stdout: `release 1.0.0 ${digest}\n`,
    });

    // A home whose harnesses.yaml defines no claude.
    const other = tempHome();
    mkdirSync(join(other, 'config'));
    writeFileSync(
      join(other, 'config', 'harnesses.yaml'),
      harnessesYaml().replace(/^ {2}claude:$/m, '  claude_code:'),
    );
    const missing = await runJig(addon('validate', dir), envFor(other));
    expect(missing).toMatchObject({
      code: 1,
      stdout: 'error: .jig/addon.json:12: `requires.harnesses`: harnesses.yaml defines no `claude`\n',
    });
    const fromRoot = await runJig(addon('validate', coll), envFor(other));
    expect(fromRoot).toMatchObject({
      code: 1,
      stdout:
        'error: addons/release/.jig/addon.json:12: `requires.harnesses`: harnesses.yaml defines no `claude`\n',
    });
    expect((await runJig(addon('validate', join(coll, 'nope')), envFor(noHome))).code).toBe(2);
  });

  const author = { name: 'Ada', email: 'ada@example.com' };
  const cases: [string, AddonSpec, string][] = [
    [
      'unknown top-level key',
      { manifest: { colour: 'red' } },
      '.jig/addon.json:13: manifest: unknown key `colour`',
    ],
    [
      'name not an identifier',
      { manifest: { name: 'Release!' } },
      '.jig/addon.json:3: `name`: is not an identifier: start with a lowercase letter, then lowercase letters, digits, `_` or `-`',
    ],
    ...(
      [
        ['version not SemVer', '1.0'],
        ['version with build metadata', '1.0.0+build'],
        ['version with a leading zero', '01.0.0'],
      ] as const
    ).map(([what, version]): [string, AddonSpec, string] => [
      what,
      { version },
      '.jig/addon.json:4: `version`: is not a SemVer version without build metadata (MAJOR.MINOR.PATCH[-pre.release])',
    ]),
    [
      'version longer than 64 characters',
      { version: `1.0.0-${'a'.repeat(59)}` },
      '.jig/addon.json:4: `version`: is longer than 64 characters',
    ],
    [
      'author without email',
      { manifest: { author: { name: 'Ada' } } },
      '.jig/addon.json:6: `author.email`: is required',
    ],
    [
      'author with a bad email',
      { manifest: { author: { name: 'Ada', email: 'ada' } } },
      '.jig/addon.json:8: `author.email`: is not an email address',
    ],
    [
      'author url not https',
      { manifest: { author: { ...author, url: 'http://ada.example' } } },
      '.jig/addon.json:9: `author.url`: must start with `https://`',
    ],
    [
      'homepage http://',
      { manifest: { homepage: 'http://example.com' } },
      '.jig/addon.json:13: `homepage`: must start with `https://`',
    ],
    ['requires missing', { manifest: { requires: undefined } }, '.jig/addon.json:1: `requires`: is required'],
    [
      'requires.jig 2.01',
      { requires: { jig: '2.01' } },
      '.jig/addon.json:11: `requires.jig`: is not `MAJOR` or `MAJOR.MINOR` (digits, no leading zeros)',
    ],
    [
      'requires.jig v2',
      { requires: { jig: 'v2' } },
      '.jig/addon.json:11: `requires.jig`: is not `MAJOR` or `MAJOR.MINOR` (digits, no leading zeros)',
    ],
    [
      'requires.node',
      { requires: { jig: '2', node: '20' } },
      '.jig/addon.json:12: `requires`: unknown key `node`',
    ],
    [
      'a harness listed twice',
      { requires: { jig: '2', harnesses: ['claude', 'claude'] } },
      '.jig/addon.json:12: `requires.harnesses`: lists a name twice',
    ],
  ];

  it.each(cases)('refuses a manifest: %s', async (_what, spec, line) => {
    const coll = makeCollection('acme', {});
    writeAddon(coll, 'release', spec);
    const r = await runJig(addon('validate', join(coll, 'addons', 'release')), envFor(tempHome()));
    expect(r).toMatchObject({ code: 1, stdout: `error: ${line}\n`, stderr: '' });
  });

  it('refuses a missing manifest and one that is not JSON', async () => {
    const coll = makeCollection('acme', { release: releaseAddon() });
    const dir = join(coll, 'addons', 'release');
    rmSync(join(dir, '.jig', 'addon.json'));
    expect(await runJig(addon('validate', dir), envFor(tempHome()))).toMatchObject({
      code: 1,
      stdout: 'error: .jig/addon.json: is missing\n',
    });
    writeFileSync(join(dir, '.jig', 'addon.json'), '{\n  "name": "release",\n  "version": 1.0.0\n}\n');
    const r = await runJig(addon('validate', dir), envFor(tempHome()));
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^error: \.jig\/addon\.json:3: is not JSON: [^\n]+\n$/);
  });

  it('refuses subprocess tasks and permissions, naming library.yaml and the line', async () => {
    const coll = makeCollection('acme', {
      release: {
        files: { 'library.yaml': 'tasks:\n  build:\n    kind: subprocess\n    run: make\n' },
      },
    });
    const r = await runJig(addon('validate', join(coll, 'addons', 'release')), envFor(tempHome()));
    expect(r).toMatchObject({
      code: 1,
      stdout:
        'error: library.yaml:3: `kind: subprocess`: an add-on cannot carry subprocess tasks\n' +
        'error: library.yaml:4: `run` runs a command: an add-on cannot carry subprocess tasks\n' +
        SKIPPED,
    });

    writeAddon(coll, 'release', {
      requires: { jig: '2', harnesses: ['claude'] },
      files: {
        'library.yaml':
          'tasks:\n  w:\n    kind: agent\n    harness: claude\n    prompt: hi\n    grants:\n      allowed_tools: [Bash]\n',
      },
    });
    const g = await runJig(addon('validate', coll), envFor(tempHome()));
    expect(g).toMatchObject({
      code: 1,
      stdout:
        'error: addons/release/library.yaml:6: `grants` is a permission: an add-on carries limits, never permissions\n' +
        SKIPPED,
    });
  });
});

describe('jig admin addon install, list, disable, uninstall', () => {
  let jig: JigProcess;
  let env: Record<string, string>;
  let coll: string;
  beforeAll(async () => {
    jig = await start();
    env = envFor(jig.home);
    coll = makeCollection('acme', {
      release: releaseAddon(),
      greedy: { requires: { jig: '2', harnesses: ['nope'] } },
    });
  });

  it('adds a relative directory, prints the whole review, installs only with -y on a pipe', async () => {
    // runJig runs in the repository's root: the CLI makes the path absolute against its own cwd.
    const rel = relative(process.cwd(), coll);
    const added = await runJig(addon('collection', 'add', rel), env);
    expect(added).toMatchObject({
      code: 0,
      stdout: `added collection acme from ${coll}: release 1.0.0, greedy 1.0.0\n`,
    });

    const refused = await runJig(addon('install', 'release@acme'), env);
    expect(refused).toMatchObject({
      code: 1,
      stdout: INSTALL_REVIEW(),
      stderr:
        'jig: release not installed: there is no terminal to ask on; read the review and pass -y to apply it\n',
    });
    expect((await runJig(addon('list'), env)).stdout).toBe(
      'no add-ons installed; install one with `jig admin addon install NAME@COLLECTION`\n',
    );

    const yes = await runJig(addon('install', 'release@acme', '-y'), env);
    expect(yes).toMatchObject({
      code: 0,
      stdout: `${INSTALL_REVIEW()}installed release 1.0.0 as release\n`,
      stderr: '',
    });

    const taken = await runJig(addon('install', 'release@acme', '-y'), env);
    expect(taken).toMatchObject({
      code: 1,
      stdout: '',
      stderr:
        'jig: the namespace release is taken by release@acme; install under another with --as (HTTP 409, addon_namespace_taken)\n',
    });

    const second = await runJig(addon('install', 'release@acme', '--as', 'rel', '-y'), env);
    expect(second).toMatchObject({
      code: 0,
      stdout: `${INSTALL_REVIEW('rel')}installed release 1.0.0 as rel\n`,
    });
    expect(await runJig(addon('list'), env)).toMatchObject({
      code: 0,
      stdout: 'rel\trelease@acme\t1.0.0\tok\tdir\nrelease\trelease@acme\t1.0.0\tok\tdir\n',
    });
    const listed = JSON.parse((await runJig(addon('list', '--json'), env)).stdout);
    expect(listed.addons.map((a: { namespace: string }) => a.namespace)).toEqual(['rel', 'release']);
    expect((await runJig(addon('collection', 'list'), env)).stdout).toBe(
      `acme\t${coll}\t-\toff\tdir\trelease 1.0.0 (installed as rel, release), greedy 1.0.0\n`,
    );

    // An add-on that cannot be installed here: its review ends with the problems, nothing is asked.
    const greedy = await runJig(addon('install', 'greedy@acme', '-y'), env);
    expect(greedy.code).toBe(1);
    expect(greedy.stdout).toBe(
      [
        'Install greedy 1.0.0 from acme as greedy',
        '',
        'Reach:',
        '  harness nope',
        '',
        'Content:',
        '  (none)',
        '',
        'Problems (it cannot be installed here):',
        '  error: .jig/addon.json:12: `requires.harnesses`: harnesses.yaml defines no `nope`',
        '',
      ].join('\n'),
    );
    expect(greedy.stderr).toBe('jig: greedy cannot be installed here (see the problems above)\n');
  });

  it('disable and uninstall are refused while a chain file uses the namespace, allowed once it does not', async () => {
    const chain = join(jig.home, 'config', 'chains', 'mine.yaml');
    mkdirSync(join(jig.home, 'config', 'chains'), { recursive: true });
    writeFileSync(chain, 'description: Mine.\nnodes:\n  - id: notes\n    extends: release:notes\n');
    // templates lint reads the home's add-ons as the server does: the chain is fine.
    const lint = await runJig(['admin', 'templates', 'lint'], env);
    expect(lint.code, lint.stdout + lint.stderr).toBe(0);
    expect(lint.stdout).toBe('');
    const refusal =
      'jig: add-on release is still used by your configuration: chains/mine.yaml:4 (notes) (HTTP 409, addon_in_use)\n';
    expect(await runJig(addon('disable', 'release'), env)).toMatchObject({
      code: 1,
      stdout: '',
      stderr: refusal,
    });
    expect(await runJig(addon('uninstall', 'release', '-y'), env)).toMatchObject({
      code: 1,
      stdout: '',
      stderr: refusal,
    });
    expect(await runJig(addon('uninstall', 'release'), env)).toMatchObject({
      code: 1,
      stderr:
        'jig: addon uninstall asks first and there is no terminal to ask on; pass -y to uninstall release\n',
    });
    expect((await runJig(addon('collection', 'remove', 'acme'), env)).stderr).toBe(
      'jig: collection acme still has installed add-ons (release, rel); uninstall them first (HTTP 409, addon_collection_in_use)\n',
    );

    rmSync(chain);
    expect(await runJig(addon('disable', 'release'), env)).toMatchObject({
      code: 0,
      stdout: 'disabled release\n',
    });
    expect((await runJig(addon('list'), env)).stdout).toContain(
      'release\trelease@acme\t1.0.0\tdisabled\tdir\n',
    );
    // Disabled, the add-on offers nothing: a chain naming it lints with the problem.
    writeFileSync(chain, 'description: Mine.\nnodes:\n  - id: notes\n    extends: release:notes\n');
    const broken = await runJig(['admin', 'templates', 'lint'], env);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toBe(
      'chains/mine.yaml:4:14: extends `release:notes`: no library node has that name\n',
    );
    rmSync(chain);
    expect(await runJig(addon('enable', 'release'), env)).toMatchObject({
      code: 0,
      stdout: 'enabled release\n',
    });
    for (const ns of ['release', 'rel'])
      expect(await runJig(addon('uninstall', ns, '-y'), env)).toMatchObject({
        code: 0,
        stdout: `uninstalled ${ns}\n`,
      });
    expect(await runJig(addon('uninstall', 'release', '-y'), env)).toMatchObject({
      code: 2,
      stderr:
        'jig: no add-on is installed as release (installed: none); `jig admin addon list` lists them (HTTP 404, addon_unknown)\n',
    });
    expect(await runJig(addon('collection', 'remove', 'acme'), env)).toMatchObject({
      code: 0,
      stdout: 'removed collection acme\n',
    });
  });
});

describe('jig admin addon update, auto-update and the doctor rows', () => {
  // One server and one git collection; each step builds on the one before.
  let jig: JigProcess;
  let env: Record<string, string>;
  let dir: string;
  let installedAt = '';
  beforeAll(async () => {
    jig = await start();
    env = envFor(jig.home);
    dir = makeCollection('acme', { release: releaseAddon() });
  });
  /** Writes a version of the release add-on and commits it; answers the commit. */
  const publish = (version: string, prompt: string, budget: number): string => {
    writeAddon(dir, 'release', releaseAddon({ version, prompt }));
    const lib = join(dir, 'addons', 'release', 'library.yaml');
    writeFileSync(lib, readFileSync(lib, 'utf8').replace('budget_usd: 2', `budget_usd: ${budget}`));
    return commitAll(dir, version);
  };
  /** The two add-on rows of `jig admin doctor --json`. */
  const doctor = async () => {
    const rows = JSON.parse((await runJig(['admin', 'doctor', '--json'], env)).stdout) as {
      check: string;
      status: string;
      detail: string;
      fix: string | null;
    }[];
    return rows.filter((r) => r.check.startsWith('addon'));
  };
  const budget3 = 'limit budget_usd 3 in library task release:notes_writer';

  it('with nothing installed doctor passes both rows; installed from git, list shows the pinned commit', async () => {
    expect(await doctor()).toEqual([
      { check: 'addons', status: 'pass', detail: 'none installed', fix: null },
      { check: 'addon updates', status: 'pass', detail: 'none waiting', fix: null },
    ]);
    const added = await runJig(addon('collection', 'add', gitCollection(dir)), env);
    expect(added.code, added.stderr).toBe(0);
    const installed = await runJig(addon('install', 'release@acme', '-y'), env);
    expect(installed.code, installed.stderr).toBe(0);
    installedAt = JSON.parse((await runJig(addon('list', '--json'), env)).stdout).addons[0].commit as string;
    expect((await runJig(addon('list'), env)).stdout).toBe(
      `release\trelease@acme\t1.0.0\tok\t${installedAt.slice(0, 12)}\n`,
    );
    expect(await runJig(addon('update', '--check'), env)).toMatchObject({
      code: 0,
      stdout: 'no update waits\n',
    });
    expect(await runJig(addon('update'), env)).toMatchObject({ code: 0, stdout: 'no update waits\n' });
  });

  it('a new version waits: --check exits 1, doctor warns, the review marks reach and diffs the prompt', async () => {
    const commit = publish('1.1.0', 'Write the notes, briefly.', 3);
    expect(await runJig(addon('update', '--check'), env)).toMatchObject({
      code: 1,
      stdout: `release 1.0.0 → 1.1.0 from acme; adds reach: ${budget3}; removes reach: ${budget3.replace('budget_usd 3', 'budget_usd 2')}\n`,
    });
    expect(await doctor()).toEqual([
      { check: 'addons', status: 'pass', detail: '1 installed, all load', fix: null },
      {
        check: 'addon updates',
        status: 'warn',
        detail: '1 waiting: release 1.0.0 → 1.1.0, run `jig admin addon update`',
        fix: 'read and apply them: `jig admin addon update`',
      },
    ]);
    const review = `Update release 1.0.0 → 1.1.0 from acme at ${commit.slice(0, 12)}

Reach:
  gate chain release:ship › approve
  harness claude
+ ${budget3}
  model sonnet on claude in profile release:careful
  profile fast (the instance's)
- limit budget_usd 2 in library task release:notes_writer

Content:
  changed prompt · library task release:notes_writer · library.yaml:
    --- 1.0.0/library.yaml
    +++ 1.1.0/library.yaml
    @@ -1,1 +1,1 @@
    -Write the release notes for this change.
    +Write the notes, briefly.
  2 unchanged
`;
    expect(await runJig(addon('update'), env)).toMatchObject({
      code: 1,
      stdout: review,
      stderr:
        'jig: release not updated: there is no terminal to ask on; read the review and pass -y to apply it\n',
    });
    expect(await runJig(addon('update', '-y'), env)).toMatchObject({
      code: 0,
      stdout: `${review}updated release 1.0.0 → 1.1.0\n`,
      stderr: '',
    });
    expect(await runJig(addon('update', '--check'), env)).toMatchObject({
      code: 0,
      stdout: 'no update waits\n',
    });
    expect(await runJig(addon('update', 'release'), env)).toMatchObject({
      code: 0,
      stdout: 'release is at 1.1.0, as acme has it: nothing to update\n',
    });
  });

  it('a lower version is listed and reviewed as a downgrade', async () => {
    const commit = publish('0.9.0', 'Write the notes, briefly.', 3);
    expect(await runJig(addon('update', '--check'), env)).toMatchObject({
      code: 1,
      stdout: 'release 1.1.0 → 0.9.0 (a downgrade) from acme\n',
    });
    const down = await runJig(addon('update', 'release', '-y'), env);
    expect(down.code, down.stderr).toBe(0);
    expect(down.stdout.split('\n')[0]).toBe(
      `Downgrade release 1.1.0 → 0.9.0 from acme at ${commit.slice(0, 12)}`,
    );
    expect(down.stdout).toContain('\nContent:\n  3 unchanged\ndowngraded release 1.1.0 → 0.9.0\n');
  });

  it('auto-update applies an update that adds no reach and skips one that adds some, saying why', async () => {
    expect(await runJig(addon('auto-update', 'release', 'on'), env)).toMatchObject({
      code: 0,
      stdout: 'auto-update on for release\n',
    });
    installedAt = publish('0.9.1', 'Write the notes in one paragraph.', 3);
    const applied = await runJig(addon('auto-update'), env);
    expect(applied, applied.stderr).toMatchObject({ code: 0, stdout: 'applied release 0.9.0 → 0.9.1\n' });
    publish('0.9.2', 'Write the notes in one paragraph.', 5);
    const skipped = await runJig(addon('auto-update'), env);
    expect(skipped, skipped.stderr).toMatchObject({
      code: 0,
      stdout:
        'skipped release 0.9.2: it adds reach: limit budget_usd 5 in library task release:notes_writer\n',
    });
    expect(await runJig(addon('auto-update', 'release'), env)).toMatchObject({
      code: 2,
      stderr: 'jig: auto-update NAMESPACE takes on or off\n',
    });
    expect(await runJig(addon('collection', 'auto-update', 'acme', 'on'), env)).toMatchObject({
      code: 0,
      stdout: 'auto-update on for collection acme\n',
    });
  });

  it('doctor warns naming a collection that cannot be read, and fails an add-on that does not load', async () => {
    renameSync(dir, `${dir}-moved`);
    const [addons, updates] = await doctor();
    expect(addons).toMatchObject({ status: 'pass', detail: '1 installed, all load' });
    expect(updates).toMatchObject({ check: 'addon updates', status: 'warn' });
    expect(updates?.detail).toMatch(/^collection acme cannot be read: /);

    // The server starts on a harnesses.yaml without the profile the add-on requires (a reload of
    // it is refused for that reason): the add-on does not load.
    await jig.stop();
    const harnesses = join(jig.home, 'config', 'harnesses.yaml');
    writeFileSync(harnesses, readFileSync(harnesses, 'utf8').replace(/^ {2}fast:$/m, '  quick:'));
    await startJig({ home: jig.home });
    const problem = '.jig/addon.json:15: `requires.profiles`: harnesses.yaml defines no `fast`';
    expect((await doctor())[0]).toEqual({
      check: 'addons',
      status: 'fail',
      detail: `release: ${problem}`,
      fix: 'an add-on with a problem offers nothing: fix what it needs (harnesses.yaml), `jig admin addon update` it, or `jig admin addon disable` it',
    });
    expect((await runJig(addon('list'), env)).stdout).toBe(
      `release\trelease@acme\t0.9.1\tproblems: ${problem}\t${installedAt.slice(0, 12)}\n`,
    );
  });
});

describe('an update review as printed', () => {
  it('marks reach added and removed, diffs what changed, prints what is new, names what is gone, counts the rest', () => {
    const review: AddonReview = {
      namespace: 'rel',
      addon: 'release',
      collection: 'acme',
      commit: null,
      action: 'update',
      from: { version: '1.0.0', digest: `sha256:${'a'.repeat(64)}` },
      to: { version: '2.0.0', digest: `sha256:${'b'.repeat(64)}` },
      reach: {
        lines: ['gate chain rel:ship › approve', 'harness claude'],
        added: ['harness claude'],
        removed: ['harness codex'],
      },
      content: [
        {
          kind: 'prompt',
          file: 'library.yaml',
          where: 'library task rel:w',
          text: 'Two',
          change: 'changed',
          diff: '===================================================================\n--- 1.0.0/library.yaml\n+++ 2.0.0/library.yaml\n@@ -1,1 +1,1 @@\n-One\n+Two\n',
        },
        {
          kind: 'skill',
          file: 'skills/new/SKILL.md',
          where: 'skill rel:new',
          text: '# New\n\nDo it.\u001b[2K\r\n',
          change: 'new',
          diff: null,
        },
        {
          kind: 'steering',
          file: 'library.yaml',
          where: 'steering rel:tone',
          text: 'Short.',
          change: 'removed',
          diff: null,
        },
      ],
      unchanged: 4,
      problems: [{ file: 'chains/ship.yaml', line: 7, message: '`run` runs a command' }],
      review: 'sha256:c',
    };
    expect(formatReview(review)).toBe(`Update release 1.0.0 → 2.0.0 from acme as rel

Reach:
  gate chain rel:ship › approve
+ harness claude
- harness codex

Content:
  changed prompt · library task rel:w · library.yaml:
    --- 1.0.0/library.yaml
    +++ 2.0.0/library.yaml
    @@ -1,1 +1,1 @@
    -One
    +Two
  new skill · skill rel:new · skills/new/SKILL.md:
    # New

    Do it.\\x1b[2K\\x0d
  - removed steering · steering rel:tone · library.yaml
  4 unchanged

Problems (it cannot be applied here):
  error: chains/ship.yaml:7: \`run\` runs a command
`);
    expect(formatReview({ ...review, action: 'downgrade' }).split('\n')[0]).toBe(
      'Downgrade release 1.0.0 → 2.0.0 from acme as rel',
    );
  });
});
