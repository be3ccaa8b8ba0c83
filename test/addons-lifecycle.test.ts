import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import {
  addCollection,
  commitAll,
  frozenChain,
  gitCollection,
  hexOf,
  installAddon,
  makeCollection,
  readLock,
  releaseAddon,
  updateAddon,
  versionFolders,
  writeAddon,
} from './helpers/addons.js';
import { agentSetup, harnessesYaml } from './helpers/agents.js';
import { fileItem, post, until } from './helpers/engine.js';
import { git } from './helpers/git.js';
import { cleanupAll, http, startJig, tempHome, type JigProcess } from './helpers/server.js';

afterAll(cleanupAll);

/** A home with the fake CLIs as harnesses (the add-ons require `claude` and the profile `fast`). */
function home(): string {
  const h = tempHome();
  mkdirSync(join(h, 'config'), { recursive: true });
  writeFileSync(join(h, 'config', 'harnesses.yaml'), harnessesYaml());
  return h;
}

const start = (h = home()): Promise<JigProcess> => startJig({ home: h });

/** release:ship with a second gate, `legal`, before `approve`. */
const SHIP_WITH_LEGAL = `description: Release notes, legal reads them, then a person approves.
nodes:
  - id: notes
    extends: notes
  - id: legal
    kind: gate
    message: Legal reads the notes.
  - id: approve
    kind: gate
    message: Read the notes and approve.
`;

const addonsOf = async (jig: JigProcess): Promise<any> => {
  const r = await http(`${jig.url}/api/addons`);
  expect(r.status).toBe(200);
  return r.json;
};

describe('add-on collections, installs and updates', () => {
  it('a git collection is pinned at its commit; auto-update skips an update that adds reach and applies one that adds none', async () => {
    const jig = await start();
    const coll = makeCollection('acme', { release: releaseAddon() });
    const url = gitCollection(coll);
    const c1 = git(coll, 'rev-parse', 'HEAD');

    const added = await addCollection(jig, url);
    expect(added).toEqual({
      name: 'acme',
      description: 'The acme collection',
      source: url,
      kind: 'git',
      ref: null,
      auto_update: false,
      commit: c1,
      addons: [{ name: 'release', description: 'release things', version: '1.0.0', installed_as: [] }],
      error: null,
    });
    expect(readLock(jig.home).collections).toEqual({ acme: { commit: c1 } });
    const { installed } = await installAddon(jig, 'release', 'acme');
    expect(installed).toMatchObject({ namespace: 'release', version: '1.0.0', commit: c1, state: 'ok' });
    expect(readLock(jig.home).addons.release).toMatchObject({
      addon: 'release',
      collection: 'acme',
      version: '1.0.0',
      commit: c1,
      digest: installed.digest,
    });

    // 1.1.0 adds a gate: reach an operator must read.
    writeAddon(
      coll,
      'release',
      releaseAddon({ version: '1.1.0', extra: { 'chains/ship.yaml': SHIP_WITH_LEGAL } }),
    );
    const c2 = commitAll(coll, '1.1.0: a legal gate');
    const updates = await http(`${jig.url}/api/addons/updates`);
    expect(updates.status).toBe(200);
    expect(updates.json).toEqual({
      updates: [
        {
          namespace: 'release',
          addon: 'release',
          collection: 'acme',
          from: '1.0.0',
          to: '1.1.0',
          action: 'update',
          reach_added: ['gate chain release:ship › legal'],
          reach_removed: [],
        },
      ],
      errors: [],
    });
    // Auto-update is off: nothing is looked at.
    const off = await post(jig, '/api/addons/auto-update');
    expect(off.status).toBe(200);
    expect(off.json).toEqual({ applied: [], skipped: [], errors: [] });

    const on = await http(`${jig.url}/api/addons/release`, { method: 'PATCH', body: { auto_update: true } });
    expect(on.status, on.text).toBe(200);
    expect(on.json).toMatchObject({
      namespace: 'release',
      auto_update: true,
      enabled: true,
      version: '1.0.0',
    });
    expect(parseYaml(readFileSync(join(jig.home, 'config', 'addons.yaml'), 'utf8')).addons).toEqual({
      release: { addon: 'release', collection: 'acme', enabled: true, auto_update: true },
    });
    const skipped = await post(jig, '/api/addons/auto-update');
    expect(skipped.status).toBe(200);
    expect(skipped.json).toEqual({
      applied: [],
      skipped: [
        { namespace: 'release', to: '1.1.0', reason: 'it adds reach: gate chain release:ship › legal' },
      ],
      errors: [],
    });
    expect(readLock(jig.home).addons.release).toMatchObject({ version: '1.0.0', commit: c1 });
    expect(readLock(jig.home).collections).toEqual({ acme: { commit: c1 } });

    // A person reads the reach and applies it.
    const { review, updated } = await updateAddon(jig, 'release');
    expect(review).toMatchObject({
      action: 'update',
      commit: c2,
      reach: { added: ['gate chain release:ship › legal'] },
    });
    expect(updated).toMatchObject({ version: '1.1.0', commit: c2 });
    expect(readLock(jig.home).collections).toEqual({ acme: { commit: c2 } });

    // 1.2.0 changes a prompt only: auto-update applies it, and the lock moves.
    writeAddon(
      coll,
      'release',
      releaseAddon({
        version: '1.2.0',
        prompt: 'Write short release notes.',
        extra: { 'chains/ship.yaml': SHIP_WITH_LEGAL },
      }),
    );
    const c3 = commitAll(coll, '1.2.0: a shorter prompt');
    const quiet = await http(`${jig.url}/api/addons/updates`);
    expect(quiet.json.updates).toEqual([
      expect.objectContaining({ from: '1.1.0', to: '1.2.0', action: 'update', reach_added: [] }),
    ]);
    const applied = await post(jig, '/api/addons/auto-update');
    expect(applied.status).toBe(200);
    expect(applied.json).toEqual({
      applied: [{ namespace: 'release', from: '1.1.0', to: '1.2.0' }],
      skipped: [],
      errors: [],
    });
    const lock = readLock(jig.home);
    expect(lock.collections).toEqual({ acme: { commit: c3 } });
    expect(lock.addons.release).toMatchObject({ version: '1.2.0', commit: c3 });
    const [now] = (await addonsOf(jig)).addons;
    expect(now).toMatchObject({
      version: '1.2.0',
      commit: c3,
      digest: lock.addons.release.digest,
      state: 'ok',
    });
    expect(versionFolders(jig.home, 'release')).toEqual([hexOf(lock.addons.release.digest)]);
    // Nothing left to do.
    expect((await post(jig, '/api/addons/auto-update')).json).toEqual({
      applied: [],
      skipped: [],
      errors: [],
    });

    // 1.3.0 takes the `legal` gate away: less for a person to decide is a change of reach too.
    writeAddon(coll, 'release', releaseAddon({ version: '1.3.0', prompt: 'Write short release notes.' }));
    commitAll(coll, '1.3.0: no legal gate');
    const fewer = await http(`${jig.url}/api/addons/updates`);
    expect(fewer.json.updates).toEqual([
      expect.objectContaining({
        to: '1.3.0',
        reach_added: [],
        reach_removed: ['gate chain release:ship › legal'],
      }),
    ]);
    expect((await post(jig, '/api/addons/auto-update')).json).toEqual({
      applied: [],
      skipped: [
        { namespace: 'release', to: '1.3.0', reason: 'it removes reach: gate chain release:ship › legal' },
      ],
      errors: [],
    });
  });

  it("a lower version is a downgrade: the collection's auto-update never applies it, a person can", async () => {
    const jig = await start();
    const coll = makeCollection('acme', { release: releaseAddon() });
    const url = gitCollection(coll);
    await addCollection(jig, url);
    const v1 = (await installAddon(jig, 'release', 'acme')).installed.digest;
    // Auto-update for the whole collection this time.
    const on = await http(`${jig.url}/api/addons/collections/acme`, {
      method: 'PATCH',
      body: { auto_update: true },
    });
    expect(on.status, on.text).toBe(200);
    expect(on.json).toMatchObject({ name: 'acme', auto_update: true, kind: 'git' });

    writeAddon(coll, 'release', releaseAddon({ version: '0.9.0', prompt: 'Write the notes (0.9).' }));
    const back = commitAll(coll, 'back to 0.9.0');
    const review = await http(`${jig.url}/api/addons/release/update`);
    expect(review.status, review.text).toBe(200);
    expect(review.json).toMatchObject({
      action: 'downgrade',
      from: { version: '1.0.0', digest: v1 },
      to: { version: '0.9.0' },
      commit: back,
      reach: { added: [], removed: [] },
      problems: [],
    });
    expect(review.json.content.map((c: any) => `${c.change} ${c.kind} ${c.where}`)).toEqual([
      'changed prompt library task release:notes_writer',
    ]);
    expect((await http(`${jig.url}/api/addons/updates`)).json.updates).toEqual([
      {
        namespace: 'release',
        addon: 'release',
        collection: 'acme',
        from: '1.0.0',
        to: '0.9.0',
        action: 'downgrade',
        reach_added: [],
        reach_removed: [],
      },
    ]);
    const auto = await post(jig, '/api/addons/auto-update');
    expect(auto.json).toEqual({
      applied: [],
      skipped: [
        { namespace: 'release', to: '0.9.0', reason: 'a downgrade (from 1.0.0) is applied only by a person' },
      ],
      errors: [],
    });
    expect(readLock(jig.home).addons.release).toMatchObject({ version: '1.0.0', digest: v1 });

    const applied = await http(`${jig.url}/api/addons/release/update`, {
      method: 'POST',
      body: { review: review.json.review },
    });
    expect(applied.status, applied.text).toBe(200);
    expect(applied.json).toMatchObject({ version: '0.9.0', commit: back, digest: review.json.to.digest });
    expect(readLock(jig.home).addons.release).toMatchObject({ version: '0.9.0', commit: back });
  });

  it('an update that would break a chain of mine is refused at review, at apply and by auto-update', async () => {
    const jig = await start();
    const coll = makeCollection('acme', { release: releaseAddon() });
    await addCollection(jig, coll);
    await installAddon(jig, 'release', 'acme');
    const mine = join(jig.home, 'config', 'chains', 'mine.yaml');
    writeFileSync(
      mine,
      `nodes:
  - id: notes
    extends: release:notes
  - id: check
    kind: exec
    tasks:
      - id: changelog
        kind: agent
        harness: claude
        skill: release:notes
        prompt: Check the changelog.
`,
    );
    expect((await post(jig, '/api/apply/reload')).json.refused).toEqual([]);
    const on = await http(`${jig.url}/api/addons/release`, { method: 'PATCH', body: { auto_update: true } });
    expect(on.status, on.text).toBe(200);

    // 1.1.0 renames its node `notes` to `writing` and its skill `notes` to `guide`: no reach added.
    const next = releaseAddon({ version: '1.1.0' });
    const files = next.files!;
    files['library.yaml'] = files['library.yaml']!.replace(
      '  notes:\n    description',
      '  writing:\n    description',
    ).replace('skill: notes', 'skill: guide');
    files['chains/ship.yaml'] = files['chains/ship.yaml']!.replace('extends: notes', 'extends: writing');
    files['skills/guide/SKILL.md'] = files['skills/notes/SKILL.md']!;
    delete files['skills/notes/SKILL.md'];
    writeAddon(coll, 'release', next);

    const problems = [
      {
        file: 'config/chains/mine.yaml',
        line: 3,
        message: 'with this version, notes extends: extends `release:notes`: no library node has that name',
      },
      {
        file: 'config/chains/mine.yaml',
        line: 10,
        message:
          'with this version, check.main.changelog skill: skill `release:notes`: no enabled add-on `release` has skills/notes/SKILL.md',
      },
    ];
    const review = await http(`${jig.url}/api/addons/release/update`);
    expect(review.status, review.text).toBe(200);
    expect(review.json).toMatchObject({ action: 'update', reach: { added: [] }, problems });
    const apply = await http(`${jig.url}/api/addons/release/update`, {
      method: 'POST',
      body: { review: review.json.review },
    });
    expect(apply.status).toBe(422);
    expect(apply.json).toEqual({
      code: 'addon_invalid',
      detail: `add-on release cannot be installed here: ${problems.map((p) => `${p.file}:${p.line}: ${p.message}`).join('; ')}`,
      problems,
    });
    const auto = await post(jig, '/api/addons/auto-update');
    expect(auto.json).toEqual({
      applied: [],
      skipped: [
        {
          namespace: 'release',
          to: '1.1.0',
          reason: `it cannot be installed here: config/chains/mine.yaml:3: ${problems[0]!.message}`,
        },
      ],
      errors: [],
    });
    expect(readLock(jig.home).addons.release.version).toBe('1.0.0');
    const health = await http(`${jig.url}/api/health`);
    expect(health.json.invalid_templates).toBeNull();

    // Without the chain, the same update applies.
    rmSync(mine);
    expect((await updateAddon(jig, 'release')).updated).toMatchObject({ version: '1.1.0', state: 'ok' });
  });

  it('`--as` installs the same add-on under a second namespace; a namespace is taken once', async () => {
    const { jig, repo, home: h } = await agentSetup({}, { env: { FAKE_AGENT_MODE: 'done' } });
    await addCollection(jig, makeCollection('acme', { release: releaseAddon() }));
    const first = (await installAddon(jig, 'release', 'acme')).installed;
    const { review, installed: second } = await installAddon(jig, 'release', 'acme', 'rel');
    expect(review.reach.lines).toEqual([
      'gate chain rel:ship › approve',
      'harness claude',
      'limit budget_usd 2 in library task rel:notes_writer',
      'model sonnet on claude in profile rel:careful',
      "profile fast (the instance's)",
    ]);
    expect(second).toMatchObject({
      namespace: 'rel',
      addon: 'release',
      chains: ['rel:ship'],
      profiles: ['rel:careful'],
      skills: ['rel:notes'],
      components: { nodes: ['rel:notes'], steps: [], tasks: ['rel:notes_writer'], steering: ['rel:tone'] },
      digest: first.digest,
    });
    const listed = await addonsOf(jig);
    expect(listed.addons.map((a: any) => [a.namespace, a.chains, a.state])).toEqual([
      ['rel', ['rel:ship'], 'ok'],
      ['release', ['release:ship'], 'ok'],
    ]);
    expect(listed.collections[0].addons[0].installed_as).toEqual(['rel', 'release']);
    expect(readLock(h).addons.rel).toMatchObject({
      addon: 'release',
      collection: 'acme',
      digest: first.digest,
    });

    // Both chains run, each on its own namespace's copy.
    const a = await fileItem(jig, repo, 'release:ship');
    const b = await fileItem(jig, repo, 'rel:ship');
    for (const it of [a, b]) {
      const at = await until(jig, it.id, (i) => i.status === 'stopped');
      expect(at.current_node).toBe('approve');
    }
    expect(frozenChain(h, a.id).addons).toEqual({ release: first.digest });
    expect(frozenChain(h, b.id).addons).toEqual({ rel: first.digest });
    expect(versionFolders(h, 'rel')).toEqual([hexOf(first.digest)]);

    const taken = {
      code: 'addon_namespace_taken',
      detail: 'the namespace release is taken by release@acme; install under another with --as',
    };
    const again = await http(`${jig.url}/api/addons/review`, {
      method: 'POST',
      body: { addon: 'release', collection: 'acme', as: 'release' },
    });
    expect(again.status).toBe(409);
    expect(again.json).toEqual(taken);
    const install = await http(`${jig.url}/api/addons`, {
      method: 'POST',
      body: { addon: 'release', collection: 'acme', as: 'release', review: review.review },
    });
    expect(install.status).toBe(409);
    expect(install.json).toEqual(taken);
  });

  it('an add-on with a subprocess task or a grant is refused at review and at install, naming the file and line', async () => {
    const jig = await start();
    const risky = {
      requires: { jig: '2', harnesses: ['claude'] },
      files: {
        'library.yaml': `tasks:
  build:
    kind: subprocess
    run: make release
nodes:
  ship:
    tasks:
      - id: notes
        kind: agent
        harness: claude
        prompt: Write the notes.
        grants:
          tools: [Bash]
`,
        'chains/ship.yaml': 'nodes:\n  - id: ship\n    extends: ship\n',
      },
    };
    await addCollection(jig, makeCollection('acme', { risky }));
    const review = await http(`${jig.url}/api/addons/review`, {
      method: 'POST',
      body: { addon: 'risky', collection: 'acme' },
    });
    expect(review.status, review.text).toBe(200);
    const problems = [
      {
        file: 'library.yaml',
        line: 3,
        message: '`kind: subprocess`: an add-on cannot carry subprocess tasks',
      },
      {
        file: 'library.yaml',
        line: 4,
        message: '`run` runs a command: an add-on cannot carry subprocess tasks',
      },
      {
        file: 'library.yaml',
        line: 12,
        message: '`grants` is a permission: an add-on carries limits, never permissions',
      },
    ];
    expect(review.json.problems).toEqual(problems);

    const install = await http(`${jig.url}/api/addons`, {
      method: 'POST',
      body: { addon: 'risky', collection: 'acme', review: review.json.review },
    });
    expect(install.status).toBe(422);
    expect(install.json).toEqual({
      code: 'addon_invalid',
      detail: `add-on risky cannot be installed here: ${problems.map((p) => `${p.file}:${p.line}: ${p.message}`).join('; ')}`,
      problems,
    });
    // Nothing was written.
    expect(readLock(jig.home).addons).toEqual({});
    expect(existsSync(join(jig.home, 'addons', 'risky'))).toBe(false);
    expect((await addonsOf(jig)).addons).toEqual([]);
  });

  it('addons.yaml and addons.lock copied to a fresh home reproduce the add-on at its pinned commit', async () => {
    const jig = await start();
    const coll = makeCollection('acme', { release: releaseAddon() });
    const url = gitCollection(coll);
    const c1 = git(coll, 'rev-parse', 'HEAD');
    await addCollection(jig, url);
    const { installed } = await installAddon(jig, 'release', 'acme');
    // The collection moves on: the copy must come back at the pinned commit, not at HEAD.
    writeAddon(coll, 'release', releaseAddon({ version: '1.1.0', prompt: 'Something newer.' }));
    commitAll(coll, '1.1.0');

    const fresh = home();
    for (const f of ['addons.yaml', 'addons.lock'])
      copyFileSync(join(jig.home, 'config', f), join(fresh, 'config', f));
    expect(existsSync(join(fresh, 'addons'))).toBe(false);
    const copy = await start(fresh);
    await expect
      .poll(async () => (await addonsOf(copy)).addons.map((a: any) => a.state), { timeout: 30_000 })
      .toEqual(['ok']);
    const [restored] = (await addonsOf(copy)).addons;
    expect(restored).toEqual({ ...installed, state: 'ok' });
    expect(restored).toMatchObject({ version: '1.0.0', commit: c1, digest: installed.digest });
    expect(versionFolders(fresh, 'release')).toEqual([hexOf(installed.digest)]);
    expect(readLock(fresh)).toEqual(readLock(jig.home));
  });

  it('a collection with an installed add-on cannot be removed until the add-on is uninstalled', async () => {
    const jig = await start();
    await addCollection(jig, makeCollection('acme', { release: releaseAddon() }));
    await installAddon(jig, 'release', 'acme');

    const refused = await http(`${jig.url}/api/addons/collections/acme`, { method: 'DELETE' });
    expect(refused.status).toBe(409);
    expect(refused.json).toEqual({
      code: 'addon_collection_in_use',
      detail: 'collection acme still has installed add-ons (release); uninstall them first',
    });
    const un = await http(`${jig.url}/api/addons/release`, { method: 'DELETE' });
    expect(un.status, un.text).toBe(204);
    const removed = await http(`${jig.url}/api/addons/collections/acme`, { method: 'DELETE' });
    expect(removed.status, removed.text).toBe(204);
    expect(removed.text).toBe('');
    expect(await addonsOf(jig)).toEqual({ addons: [], collections: [] });
    expect(readLock(jig.home)).toEqual({ lock_version: 1, collections: {}, addons: {} });
    expect(parseYaml(readFileSync(join(jig.home, 'config', 'addons.yaml'), 'utf8'))).toEqual({
      collections: {},
      addons: {},
    });
  });
});
