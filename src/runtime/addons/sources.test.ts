import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AddonFiles } from '../../core/addons/types.js';
import { readAddonFiles } from './files.js';
import {
  CollectionError,
  parseSource,
  readCollection,
  sourceText,
  storedSource,
  type CollectionSource,
} from './sources.js';

const KINDS = 'a directory, a git URL (https://, ssh://, git@host:path, file://) or a GitHub owner/repo';
const NO_SECRETS = 'Jig keeps no secrets in addons.yaml; use a git credential helper or an SSH key';
const MIB = 1024 * 1024;

const INDEX = {
  name: 'team',
  description: 'Team add-ons',
  owner: { name: 'Team', email: 'team@example.com' },
  addons: [
    { name: 'release', source: './addons/release', description: 'Ship it' },
    { name: 'review', source: './addons/review' },
    { name: 'ghost', source: './addons/ghost' },
  ],
};
const manifest = (name: string) =>
  `${JSON.stringify({ name, version: '1.0.0', requires: { jig: '2' } }, null, 2)}\n`;

/** The files of a collection with two add-ons (and an entry, `ghost`, whose directory is missing). */
const COLLECTION: Record<string, string> = {
  '.jig/collection.json': `${JSON.stringify(INDEX, null, 2)}\n`,
  'README.md': '# team\n',
  'addons/release/.jig/addon.json': manifest('release'),
  'addons/release/library.yaml': 'tasks: {}\n',
  'addons/release/profiles.yaml': 'profiles: {}\n',
  'addons/release/chains/ship.yaml': 'name: ship\n',
  'addons/release/chains/Bad.yaml': 'name: bad\n',
  'addons/release/chains/notes.txt': 'not a chain\n',
  'addons/release/skills/deploy/SKILL.md': '# Deploy\n',
  'addons/release/skills/Nope/SKILL.md': '# not an identifier\n',
  'addons/release/skills/empty/README.md': 'no SKILL.md here\n',
  'addons/release/README.md': 'not read\n',
  'addons/review/.jig/addon.json': manifest('review'),
  'addons/review/chains/check.yaml': 'name: check\n',
};

/** What Jig reads of `release` as COLLECTION writes it. */
const RELEASE: AddonFiles = {
  manifest: manifest('release'),
  library: 'tasks: {}\n',
  profiles: 'profiles: {}\n',
  chains: { ship: 'name: ship\n' },
  skills: { deploy: '# Deploy\n' },
};
const REVIEW: AddonFiles = {
  manifest: manifest('review'),
  library: null,
  profiles: null,
  chains: { check: 'name: check\n' },
  skills: {},
};

let root: string;
let n = 0;
const fresh = (name: string) => {
  const d = join(root, `${name}-${++n}`);
  mkdirSync(d, { recursive: true });
  return d;
};

function write(dir: string, files: Record<string, string>): string {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

const run = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } }).trim();

function commit(dir: string, message: string): string {
  run(dir, 'add', '-A');
  run(dir, '-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', message);
  return run(dir, 'rev-parse', 'HEAD');
}

function repoOf(files: Record<string, string>): { dir: string; url: string; first: string } {
  const dir = write(fresh('repo'), files);
  run(dir, 'init', '-q', '-b', 'main');
  return { dir, url: pathToFileURL(dir).href, first: commit(dir, 'first') };
}

/** The message of the CollectionError `p` rejects with. */
async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(CollectionError);
    return (e as Error).message;
  }
  throw new Error('resolved, expected a CollectionError');
}

const keyOf = (url: string) => `${createHash('sha256').update(url).digest('hex').slice(0, 16)}.git`;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'jig-sources-')));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('parseSource', () => {
  test('a directory, absolute or relative, is dir — also when it is a git work tree', () => {
    const { dir } = repoOf(COLLECTION);
    expect(parseSource(dir, '/')).toEqual({ ok: true, source: { kind: 'dir', path: dir } });
    expect(parseSource(`  ${dir}/  `, '/')).toEqual({ ok: true, source: { kind: 'dir', path: dir } });
    expect(parseSource('addons/release', dir)).toEqual({
      ok: true,
      source: { kind: 'dir', path: join(dir, 'addons/release') },
    });
    expect(parseSource('.', dir)).toEqual({ ok: true, source: { kind: 'dir', path: dir } });
  });

  test('git URLs and the GitHub shorthand are git', () => {
    const git = (url: string) => ({ ok: true, source: { kind: 'git', url } });
    for (const url of [
      'file:///srv/collections/team',
      'https://github.com/acme/addons.git',
      'https://git.example.com/acme/addons',
      'ssh://git@example.com:2222/acme/addons.git',
      'git@github.com:acme/addons.git',
    ])
      expect(parseSource(url, root)).toEqual(git(url));
    expect(parseSource('acme/addons', root)).toEqual(git('https://github.com/acme/addons.git'));
    expect(parseSource('acme/addons.git', root)).toEqual(git('https://github.com/acme/addons.git'));
    expect(parseSource('my-org/jig.addons', root)).toEqual(git('https://github.com/my-org/jig.addons.git'));
  });

  test('an existing directory wins over the owner/repo shorthand', () => {
    const cwd = fresh('cwd');
    mkdirSync(join(cwd, 'acme/addons'), { recursive: true });
    expect(parseSource('acme/addons', cwd)).toEqual({
      ok: true,
      source: { kind: 'dir', path: join(cwd, 'acme/addons') },
    });
  });

  test('refusals', () => {
    const cwd = write(fresh('cwd'), { 'notes.txt': 'x\n' });
    const no = (message: string) => ({ ok: false, message });
    expect(parseSource('', cwd)).toEqual(no(`no source given: name ${KINDS}`));
    expect(parseSource(' \t ', cwd)).toEqual(no(`no source given: name ${KINDS}`));
    expect(parseSource('notes.txt', cwd)).toEqual(
      no(
        `\`${cwd}/notes.txt\` is a file, not a directory: a collection is a directory holding .jig/collection.json`,
      ),
    );
    expect(parseSource('nope/not/here', cwd)).toEqual(
      no(`\`nope/not/here\` is not ${KINDS}: \`${cwd}/nope/not/here\` does not exist`),
    );
    expect(parseSource('ext::sh -c touch% /tmp/x', cwd)).toEqual(
      no(`\`ext::sh -c touch% /tmp/x\` is not ${KINDS}: \`${cwd}/ext::sh -c touch% /tmp/x\` does not exist`),
    );
    expect(parseSource('a\u0007b', cwd)).toEqual(no('the source contains a control character'));
    expect(parseSource('http://example.com/a.git', cwd)).toEqual(
      no('`http://` is not a scheme Jig clones from: use https://, ssh://, git@host:path or file://'),
    );
    expect(parseSource('git://example.com/a.git', cwd)).toEqual(
      no('`git://` is not a scheme Jig clones from: use https://, ssh://, git@host:path or file://'),
    );
    expect(parseSource('https://exa mple.com/a.git', cwd)).toEqual(
      no('`https://exa mple.com/a.git` is not a valid URL'),
    );
    expect(parseSource('file://server/srv/team', cwd)).toEqual(
      no('`file://server/srv/team` names a host: a file:// URL is file:///absolute/path'),
    );
  });

  test('a URL with credentials is refused without echoing them', () => {
    const cases: [string, string][] = [
      ['https://alice:s3cret@github.com/acme/addons.git', '`https://***@github.com/acme/addons.git`'],
      ['https://ghp_s3cret@github.com/acme/addons.git', '`https://***@github.com/acme/addons.git`'],
      ['ssh://git:s3cret@example.com/acme/addons.git', '`ssh://***@example.com/acme/addons.git`'],
    ];
    for (const [text, shown] of cases)
      expect(parseSource(text, root)).toEqual({
        ok: false,
        message: `${shown} has credentials in it: ${NO_SECRETS}`,
      });
    expect(parseSource('git:s3cret@example.com:acme/addons.git', root)).toEqual({
      ok: false,
      message: `\`***@example.com:acme/addons.git\` has a password in it: ${NO_SECRETS}`,
    });
  });
});

describe('sourceText and storedSource', () => {
  test('round trip', () => {
    const sources: CollectionSource[] = [
      { kind: 'dir', path: '/srv/collections/team' },
      { kind: 'git', url: 'https://github.com/acme/addons.git' },
      { kind: 'git', url: 'git@github.com:acme/addons.git' },
      { kind: 'git', url: 'file:///srv/collections/team' },
    ];
    for (const s of sources) expect(storedSource(sourceText(s))).toEqual(s);
    expect(sourceText({ kind: 'dir', path: '/srv/team' })).toBe('/srv/team');
    expect(storedSource('acme/addons')).toEqual({ kind: 'git', url: 'https://github.com/acme/addons.git' });
  });
});

describe('readCollection from a directory', () => {
  test('the index and an add-on, as readAddonFiles reads it', async () => {
    const dir = write(fresh('dir'), COLLECTION);
    const snap = await readCollection({ kind: 'dir', path: dir }, { cacheDir: fresh('cache') });
    expect(snap.commit).toBeNull();
    expect(snap.index).toEqual(INDEX);
    expect(await snap.addonFiles('release')).toEqual(RELEASE);
    expect(await snap.addonFiles('release')).toEqual(readAddonFiles(join(dir, 'addons/release')));
    expect(await snap.addonFiles('review')).toEqual(REVIEW);
    expect(await snap.addonFiles('ghost')).toBeNull();
    expect(await failure(snap.addonFiles('other'))).toBe('the collection `team` lists no add-on `other`');
  });

  test('read live: a change on disk shows in the next addonFiles', async () => {
    const dir = write(fresh('dir'), COLLECTION);
    const snap = await readCollection({ kind: 'dir', path: dir }, { cacheDir: fresh('cache') });
    writeFileSync(join(dir, 'addons/review/library.yaml'), 'tasks: {x: {}}\n');
    expect(await snap.addonFiles('review')).toEqual({ ...REVIEW, library: 'tasks: {x: {}}\n' });
  });

  test('a link inside the collection is followed; one leaving it is refused', async () => {
    const dir = write(fresh('dir'), COLLECTION);
    const outside = write(fresh('outside'), { 'secret.yaml': 'secret: 1\n', 'skill/SKILL.md': '# secret\n' });
    symlinkSync('ship.yaml', join(dir, 'addons/release/chains/alias.yaml'));
    const snap = await readCollection({ kind: 'dir', path: dir }, { cacheDir: fresh('cache') });
    expect(await snap.addonFiles('release')).toEqual({
      ...RELEASE,
      chains: { alias: 'name: ship\n', ship: 'name: ship\n' },
    });

    symlinkSync(join(outside, 'secret.yaml'), join(dir, 'addons/release/chains/leak.yaml'));
    expect(await failure(snap.addonFiles('release'))).toBe(
      `\`addons/release/chains/leak.yaml\` leads outside the collection (to ${outside}/secret.yaml)`,
    );
    rmSync(join(dir, 'addons/release/chains/leak.yaml'));
    symlinkSync(join(outside, 'skill'), join(dir, 'addons/release/skills/stolen'));
    expect(await failure(snap.addonFiles('release'))).toBe(
      `\`addons/release/skills/stolen/SKILL.md\` leads outside the collection (to ${outside}/skill/SKILL.md)`,
    );
    const linked = write(fresh('dir'), {
      ...COLLECTION,
      '.jig/collection.json': JSON.stringify({
        ...INDEX,
        addons: [{ name: 'linked', source: './addons/linked' }],
      }),
    });
    symlinkSync(outside, join(linked, 'addons/linked'));
    const snap2 = await readCollection({ kind: 'dir', path: linked }, { cacheDir: fresh('cache') });
    expect(await failure(snap2.addonFiles('linked'))).toBe(
      `\`addons/linked\` leads outside the collection (to ${outside})`,
    );
  });

  test('an index that links outside is refused', async () => {
    const dir = fresh('dir');
    const outside = write(fresh('outside'), { 'collection.json': JSON.stringify(INDEX) });
    mkdirSync(join(dir, '.jig'));
    symlinkSync(join(outside, 'collection.json'), join(dir, '.jig/collection.json'));
    expect(await failure(readCollection({ kind: 'dir', path: dir }, { cacheDir: fresh('cache') }))).toBe(
      `\`.jig/collection.json\` leads outside the collection (to ${outside}/collection.json)`,
    );
  });

  test('a file over 1 MiB is refused, one of exactly 1 MiB is read', async () => {
    const dir = write(fresh('dir'), COLLECTION);
    writeFileSync(join(dir, 'addons/release/library.yaml'), '#'.repeat(MIB));
    const snap = await readCollection({ kind: 'dir', path: dir }, { cacheDir: fresh('cache') });
    expect((await snap.addonFiles('release'))?.library).toBe('#'.repeat(MIB));
    writeFileSync(join(dir, 'addons/release/library.yaml'), '#'.repeat(MIB + 1));
    expect(await failure(snap.addonFiles('release'))).toBe(
      "`addons/release/library.yaml` is larger than 1 MiB, the most Jig reads of a collection's file",
    );
  });

  test('a missing directory, a missing index, invalid JSON and a schema problem', async () => {
    const cacheDir = fresh('cache');
    const read = (path: string) => failure(readCollection({ kind: 'dir', path }, { cacheDir }));
    expect(await read(join(root, 'absent'))).toBe(
      `the collection directory \`${root}/absent\` does not exist`,
    );
    const empty = fresh('dir');
    expect(await read(empty)).toBe(`\`${empty}\` has no .jig/collection.json, so it is not a Jig collection`);

    const bad = write(fresh('dir'), { '.jig/collection.json': '{\n  "name": "team",\n  "owner": {,\n}\n' });
    expect(await read(bad)).toBe(
      `\`.jig/collection.json\` of \`${bad}\` is not valid JSON at line 3: Expected property name or '}'`,
    );
    write(bad, { '.jig/collection.json': '{\n  "name": "team",\n  "owner": nobody\n}\n' });
    expect(await read(bad)).toBe(
      `\`.jig/collection.json\` of \`${bad}\` is not valid JSON at line 3: Unexpected token 'o'`,
    );
    write(bad, { '.jig/collection.json': '{\n  "name": "team",\n  "addons": [\n' });
    expect(await read(bad)).toBe(
      `\`.jig/collection.json\` of \`${bad}\` is not valid JSON at line 4: Unexpected end of JSON input`,
    );

    // The schema alone keeps an entry inside addons/: `..` never reaches a file read.
    const escape = { ...INDEX, addons: [{ name: 'x', source: './addons/../x' }] };
    write(bad, { '.jig/collection.json': JSON.stringify(escape) });
    expect(await read(bad)).toBe(
      `\`.jig/collection.json\` of \`${bad}\`: \`addons.0.source\`: is not \`./addons/<name>\``,
    );
    write(bad, { '.jig/collection.json': JSON.stringify({ ...INDEX, owner: undefined, extra: 1 }) });
    expect(await read(bad)).toBe(
      `\`.jig/collection.json\` of \`${bad}\`: \`owner\`: Invalid input: expected object, received undefined; the index: Unrecognized key: "extra" (\`extra\`)`,
    );
  });
});

describe('readCollection from git', () => {
  let repo: { dir: string; url: string; first: string };
  let second: string;
  let cacheDir: string;
  const git = (): CollectionSource => ({ kind: 'git', url: repo.url });

  beforeAll(() => {
    repo = repoOf(COLLECTION);
    cacheDir = fresh('cache');
  });

  test('at HEAD: the commit, the index and the add-ons; the mirror is <key>.git', async () => {
    const snap = await readCollection(git(), { cacheDir });
    expect(snap.commit).toBe(repo.first);
    expect(snap.index).toEqual(INDEX);
    expect(await snap.addonFiles('release')).toEqual(RELEASE);
    expect(await snap.addonFiles('review')).toEqual(REVIEW);
    expect(await snap.addonFiles('ghost')).toBeNull();
    expect(readdirSync(cacheDir)).toEqual([keyOf(repo.url)]);
  });

  test('a new commit is seen after fetch: true, not before', async () => {
    write(repo.dir, { 'addons/release/library.yaml': 'tasks: {two: {}}\n' });
    second = commit(repo.dir, 'second');
    const stale = await readCollection(git(), { cacheDir });
    expect(stale.commit).toBe(repo.first);
    const snap = await readCollection(git(), { cacheDir, fetch: true });
    expect(snap.commit).toBe(second);
    expect(await snap.addonFiles('release')).toEqual({ ...RELEASE, library: 'tasks: {two: {}}\n' });
  });

  test('a tag and a branch as ref', async () => {
    run(repo.dir, 'tag', 'v1', repo.first);
    run(repo.dir, 'checkout', '-q', '-b', 'beta');
    write(repo.dir, { 'addons/review/chains/check.yaml': 'name: beta\n' });
    const beta = commit(repo.dir, 'beta');
    run(repo.dir, 'checkout', '-q', 'main');

    const tag = await readCollection(git(), { cacheDir, ref: 'v1', fetch: true });
    expect(tag.commit).toBe(repo.first);
    expect(await tag.addonFiles('release')).toEqual(RELEASE);
    const branch = await readCollection(git(), { cacheDir, ref: 'beta' });
    expect(branch.commit).toBe(beta);
    expect(await branch.addonFiles('review')).toEqual({ ...REVIEW, chains: { check: 'name: beta\n' } });
    expect((await readCollection(git(), { cacheDir, ref: 'main' })).commit).toBe(second);
    expect(await failure(readCollection(git(), { cacheDir, ref: 'nope' }))).toBe(
      `\`nope\` is not a branch, tag or commit of \`${repo.url}\``,
    );
    expect(await failure(readCollection(git(), { cacheDir, ref: '--upload-pack=x' }))).toBe(
      '`--upload-pack=x` is not a git ref: a branch, tag or commit is not empty and has no leading `-` and no spaces',
    );
  });

  test('a pinned commit reads that commit after the mirror moved on', async () => {
    const snap = await readCollection(git(), { cacheDir, commit: repo.first, ref: 'main' });
    expect(snap.commit).toBe(repo.first);
    expect(await snap.addonFiles('release')).toEqual(RELEASE);
  });

  test('a pinned commit absent from the cache is fetched', async () => {
    // A fresh cache dir: a new machine with only addons.lock.
    const onNewMachine = await readCollection(git(), { cacheDir: fresh('cache'), commit: second });
    expect(onNewMachine.commit).toBe(second);
    expect((await onNewMachine.addonFiles('release'))?.library).toBe('tasks: {two: {}}\n');

    // A mirror that has not fetched since the commit was made.
    write(repo.dir, { 'addons/review/profiles.yaml': 'profiles: {}\n' });
    const third = commit(repo.dir, 'third');
    const behind = await readCollection(git(), { cacheDir, commit: third });
    expect(behind.commit).toBe(third);
    expect(await behind.addonFiles('review')).toEqual({ ...REVIEW, profiles: 'profiles: {}\n' });

    // A commit that no branch or tag holds, only another ref (a pull request's): fetched by id.
    const hidden = commit(repo.dir, 'hidden');
    run(repo.dir, 'update-ref', 'refs/pull/1/head', hidden);
    run(repo.dir, 'reset', '-q', '--hard', third);
    const pinned = await readCollection(git(), { cacheDir, commit: hidden });
    expect(pinned.commit).toBe(hidden);
    expect(run(join(cacheDir, keyOf(repo.url)), 'rev-parse', `refs/jig/commits/${hidden}`)).toBe(hidden);

    const none = '0'.repeat(40);
    expect(await failure(readCollection(git(), { cacheDir, commit: none }))).toBe(
      `commit ${none} is not in \`${repo.url}\`: it may have been rewritten away`,
    );
    expect(await failure(readCollection(git(), { cacheDir, commit: 'HEAD' }))).toBe(
      '`HEAD` is not a full commit id (40 or 64 lowercase hex digits)',
    );
  });

  test('concurrent reads of one URL share one mirror', async () => {
    const shared = fresh('cache');
    const snaps = await Promise.all(
      [0, 1, 2, 3].map((i) => readCollection(git(), { cacheDir: shared, fetch: i % 2 === 1 })),
    );
    const head = run(repo.dir, 'rev-parse', 'HEAD');
    expect(snaps.map((s) => s.commit)).toEqual([head, head, head, head]);
    expect(await Promise.all(snaps.map((s) => s.addonFiles('review')))).toEqual(
      snaps.map(() => ({ ...REVIEW, profiles: 'profiles: {}\n' })),
    );
    expect(readdirSync(shared)).toEqual([keyOf(repo.url)]);
  });

  test('clone failure, a URL with credentials, an empty repository', async () => {
    const missing = pathToFileURL(join(root, 'missing')).href;
    expect(await failure(readCollection({ kind: 'git', url: missing }, { cacheDir }))).toBe(
      `cannot clone \`${missing}\`: '${root}/missing' does not appear to be a git repository`,
    );
    expect(existsSync(join(cacheDir, keyOf(missing)))).toBe(false);
    expect(readdirSync(cacheDir)).toEqual([keyOf(repo.url)]);

    expect(
      await failure(readCollection({ kind: 'git', url: 'https://u:s3cret@example.com/a.git' }, { cacheDir })),
    ).toBe(`\`https://***@example.com/a.git\` has credentials in it: ${NO_SECRETS}`);

    const empty = fresh('empty');
    run(empty, 'init', '-q');
    const url = pathToFileURL(empty).href;
    expect(await failure(readCollection({ kind: 'git', url }, { cacheDir }))).toBe(
      `\`${url}\` has no commit at HEAD: the repository is empty or its default branch is gone`,
    );
  });

  test('missing index, invalid JSON', async () => {
    const bare = repoOf({ 'README.md': 'no index\n' });
    expect(await failure(readCollection({ kind: 'git', url: bare.url }, { cacheDir }))).toBe(
      `\`${bare.url}\` at ${bare.first.slice(0, 12)} has no .jig/collection.json, so it is not a Jig collection`,
    );
    const bad = repoOf({ '.jig/collection.json': '{\n  "name": "team",\n}\n' });
    expect(await failure(readCollection({ kind: 'git', url: bad.url }, { cacheDir }))).toBe(
      `\`.jig/collection.json\` of \`${bad.url}\` at ${bad.first.slice(0, 12)} is not valid JSON at line 3: Expected double-quoted property name`,
    );
  });

  test('a committed link is not followed; an oversized file is refused', async () => {
    const r = repoOf(COLLECTION);
    symlinkSync('/etc/passwd', join(r.dir, 'addons/release/chains/leak.yaml'));
    symlinkSync('../review', join(r.dir, 'addons/ghost'));
    commit(r.dir, 'links');
    const snap = await readCollection({ kind: 'git', url: r.url }, { cacheDir, fetch: true });
    expect(await failure(snap.addonFiles('release'))).toBe(
      '`addons/release/chains/leak.yaml` is a symbolic link, which Jig does not follow in a git collection',
    );
    expect(await failure(snap.addonFiles('ghost'))).toBe(
      '`addons/ghost` is a symbolic link, which Jig does not follow in a git collection',
    );
    rmSync(join(r.dir, 'addons/release/chains/leak.yaml'));
    write(r.dir, { 'addons/release/skills/deploy/SKILL.md': 'x'.repeat(MIB + 1) });
    commit(r.dir, 'big');
    const big = await readCollection({ kind: 'git', url: r.url }, { cacheDir, fetch: true });
    expect(await failure(big.addonFiles('release'))).toBe(
      "`addons/release/skills/deploy/SKILL.md` is larger than 1 MiB, the most Jig reads of a collection's file",
    );
    expect(await big.addonFiles('review')).toEqual(REVIEW);
  });
});
