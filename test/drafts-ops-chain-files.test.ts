import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sha256Text } from '../src/runtime/config/config-dir.js';
import { draftsJig, filePath, type DraftsJig } from './helpers/drafts.js';
import { discard, diskDoc, docOf, expectRefused, postOps } from './helpers/drafts-ops.js';
import { cleanupAll, tempHome, type HttpResult } from './helpers/server.js';

/*
 * Chain ops that reach past the chain's own file (spec drafts.md, "Areas and keys" rule 1, and the
 * chain ops table): `move_to_library` joining library.yaml, renaming the chain to a new file,
 * `new_chain` and `delete_chain`, each published onto the disk and the running server; and the
 * fragment read that `set_fragment` writes back.
 */

let j: DraftsJig;
const QUICK = 'chains/quick-task.yaml';
const LIB = 'library.yaml';
let reposText: string;

beforeAll(async () => {
  j = await draftsJig();
  reposText = j.disk('repos.yaml')!;
});
afterEach(async () => {
  for (const key of ['quick-task', 'fresh', 'blank']) await discard(j, 'chains', key);
  writeFileSync(join(j.home, 'config', 'repos.yaml'), reposText);
});
afterAll(async () => {
  await j.srv.close();
  await cleanupAll();
});

const publish = (key: string): Promise<HttpResult> => j.call('POST', `/api/drafts/chains/${key}/publish`);
const chainIds = async (): Promise<string[]> =>
  (await j.call('GET', '/api/templates/chains')).json.chains.map((c: { id: string }) => c.id).sort();

/** A repos.yaml whose one repo runs `chain` by default (the path need not be a git repository). */
function repoDefaulting(chain: string): string {
  const dir = join(tempHome('jig-ops-repo-'), 'repo');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(j.home, 'config', 'repos.yaml'),
    `repos:\n  - path: ${dir}\n    default_chain: ${chain}\n`,
  );
  return dir;
}

describe('move_to_library', () => {
  it('moves a task into the library: library.yaml joins the draft, and a publish writes both', async () => {
    const libText = j.disk(LIB)!;
    const quickText = j.disk(QUICK)!;
    const res = await postOps(j, 'chains', 'quick-task', [
      { op: 'move_to_library', path: 'verify.main.verify', name: 'quick_verify' },
    ]);
    expect(res.status).toBe(200);
    expect(res.json.ops).toEqual([{ op: 'move_to_library', result: { path: 'tasks.quick_verify' } }]);
    expect(Object.keys(res.json.files).sort()).toEqual([QUICK, LIB]);
    expect(res.json.base).toEqual({ [LIB]: sha256Text(libText), [QUICK]: sha256Text(quickText) });
    expect(res.json.published).toEqual({ [LIB]: libText, [QUICK]: quickText });
    const chain = diskDoc(j, QUICK);
    chain.nodes[1].tasks[0] = { id: 'verify', extends: 'quick_verify' };
    expect(docOf(res, QUICK)).toEqual(chain);
    const lib = diskDoc(j, LIB);
    lib.tasks.quick_verify = { extends: 'verify_changed_scopes' };
    expect(docOf(res, LIB)).toEqual(lib);
    expect(res.json.result.problems).toEqual([]);
    expect(res.json.result.changes).toContainEqual({
      path: 'verify.main.verify',
      kind: 'change',
      summary: 'changed extends',
      fields: ['extends'],
    });
    const listed = (await j.call('GET', '/api/drafts')).json;
    expect(listed).toMatchObject([{ area: 'chains', key: 'quick-task', files: [QUICK, LIB] }]);

    const done = await publish('quick-task');
    expect(done.status).toBe(200);
    expect(done.json.published).toEqual([QUICK, LIB]);
    expect(parse(j.disk(LIB)!)).toEqual(lib);
    expect(parse(j.disk(QUICK)!)).toEqual(chain);
    const resolved = await j.call('GET', '/api/templates/chains/quick-task/resolved');
    expect(resolved.status).toBe(200);
    expect(JSON.stringify(resolved.json)).toContain('jig.verify_changed_test_scopes');
    expect((await j.call('GET', '/api/drafts')).json).toEqual([]);
    // Back as it was, for the tests after.
    writeFileSync(join(j.home, 'config', LIB), libText);
    writeFileSync(join(j.home, 'config', QUICK), quickText);
    expect((await j.call('POST', '/api/templates/reload')).status).toBe(200);
  });

  it('is one undo step for both files', async () => {
    const res = await postOps(j, 'chains', 'quick-task', [
      { op: 'move_to_library', path: 'verify', name: 'quick_checks' },
    ]);
    expect(res.json.ops).toEqual([{ op: 'move_to_library', result: { path: 'nodes.quick_checks' } }]);
    const lib = diskDoc(j, LIB);
    lib.nodes.quick_checks = { ...diskDoc(j, QUICK).nodes[1] };
    delete lib.nodes.quick_checks.id;
    expect(docOf(res, LIB)).toEqual(lib);
    expect(docOf(res, QUICK).nodes[1]).toEqual({ id: 'verify', extends: 'quick_checks' });
    const undone = await j.call('POST', '/api/drafts/chains/quick-task/undo');
    expect(undone.json.draft).toBe(false);
    expect(Object.keys(undone.json.files)).toEqual([QUICK]);
    expect((await j.call('GET', '/api/drafts')).json).toEqual([]);
  });

  it('refuses to publish with 409 when library.yaml changed on disk since it joined', async () => {
    const libText = j.disk(LIB)!;
    const quickText = j.disk(QUICK)!;
    await postOps(j, 'chains', 'quick-task', [
      { op: 'move_to_library', path: 'verify', name: 'quick_checks' },
    ]);
    // Another draft publishes the library first.
    const other = await postOps(j, 'library', 'library', [
      { op: 'set_field', path: 'tasks.implementer', field: 'description', value: 'Elsewhere.' },
    ]);
    expect(other.status).toBe(200);
    expect((await j.call('POST', '/api/drafts/library/library/publish')).status).toBe(200);
    const res = await publish('quick-task');
    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({
      code: 'draft_stale',
      detail: `published since this draft began: ${LIB}`,
      files: { [LIB]: { published: j.disk(LIB) } },
    });
    expect(j.disk(QUICK)).toBe(quickText);
    writeFileSync(join(j.home, 'config', LIB), libText);
    expect((await j.call('POST', '/api/templates/reload')).status).toBe(200);
  });

  it('lists no chain-level row for the joined library.yaml', async () => {
    const res = await postOps(j, 'chains', 'quick-task', [
      { op: 'move_to_library', path: 'verify.main.verify', name: 'quick_verify' },
    ]);
    expect(res.status).toBe(200);
    expect(res.json.result.changes.filter((c: { path: string }) => c.path === '')).toEqual([]);
  });
});

describe('rename of the chain', () => {
  it('moves the chain to chains/<id>.yaml; a publish writes it and deletes the old file', async () => {
    const quickText = j.disk(QUICK)!;
    const res = await postOps(j, 'chains', 'quick-task', [{ op: 'rename', path: '', id: 'quick' }]);
    expect(res.status).toBe(200);
    expect(res.json.ops).toEqual([{ op: 'rename', result: { updated: [] } }]);
    expect(res.json.files[QUICK]).toBeNull();
    expect(docOf(res, 'chains/quick.yaml')).toEqual(parse(quickText));
    expect(res.json.base).toEqual({ [QUICK]: sha256Text(quickText), 'chains/quick.yaml': null });
    expect(res.json.result.problems).toEqual([]);
    // The chain lives on in the new file: fragments read from it, and a PUT takes it.
    const fragment = await j.call('GET', '/api/drafts/chains/quick-task/fragment?path=verify');
    expect(fragment.status).toBe(200);
    expect(parse(fragment.json.text)).toEqual(parse(quickText).nodes[1]);
    const put = await j.call('PUT', filePath('chains', 'quick-task', 'chains/quick.yaml'), {
      text: quickText.replace(/^description: .*$/m, 'description: Renamed.'),
    });
    expect(put.status).toBe(200);
    expect(docOf(put, 'chains/quick.yaml').description).toBe('Renamed.');

    const done = await publish('quick-task');
    expect(done.status).toBe(200);
    expect(done.json.published).toEqual(['chains/quick-task.yaml', 'chains/quick.yaml']);
    expect(j.disk(QUICK)).toBeNull();
    expect(parse(j.disk('chains/quick.yaml')!).description).toBe('Renamed.');
    expect(await chainIds()).toEqual(['default', 'manual', 'merge-request', 'quick']);
    expect((await j.call('GET', '/api/templates/chains/quick/resolved')).status).toBe(200);
    // Back as it was, for the tests after.
    const back = await postOps(j, 'chains', 'quick', [{ op: 'rename', path: '', id: 'quick-task' }]);
    expect(back.status).toBe(200);
    expect((await publish('quick')).status).toBe(200);
    writeFileSync(join(j.home, 'config', QUICK), quickText);
    expect((await j.call('POST', '/api/templates/reload')).status).toBe(200);
    expect(await chainIds()).toEqual(['default', 'manual', 'merge-request', 'quick-task']);
  });

  it('shows the move as one rename row', async () => {
    const res = await postOps(j, 'chains', 'quick-task', [{ op: 'rename', path: '', id: 'quick' }]);
    expect(res.json.result.changes).toEqual([
      expect.objectContaining({ path: '', kind: 'rename', from: 'quick-task', to: 'quick' }),
    ]);
  });

  it('refuses to publish while a repo defaults to the old id', async () => {
    const repo = repoDefaulting('quick-task');
    const res = await postOps(j, 'chains', 'quick-task', [{ op: 'rename', path: '', id: 'quick' }]);
    expect(res.status).toBe(200);
    const problem = {
      path: repo,
      field: 'default_chain',
      message:
        "default_chain `quick-task`: this draft renames it to `quick`; change the repo's default chain first",
      file: 'repos.yaml',
      line: null,
      col: null,
    };
    expect(res.json.result.problems).toEqual([problem]);
    expect(res.json.result.impact).toEqual({ running: 0, repos: [repo] });
    const done = await publish('quick-task');
    expect(done.status).toBe(422);
    expect(done.json).toMatchObject({ code: 'draft_has_problems', problems: [problem] });
    expect(done.json.detail).toMatch(/default_chain `quick-task`/);
    expect(j.disk('chains/quick.yaml')).toBeNull();
    expect(j.disk(QUICK)).not.toBeNull();
  });
});

describe('new_chain and delete_chain', () => {
  it('starts a chain on a fresh key from a copy; publish writes it; delete_chain and publish remove it', async () => {
    expect((await j.call('GET', '/api/drafts/chains/fresh')).status).toBe(404);
    const res = await postOps(j, 'chains', 'fresh', [{ op: 'new_chain', from: 'quick-task' }]);
    expect(res.status).toBe(200);
    expect(res.json.ops).toEqual([{ op: 'new_chain' }]);
    const got = await j.call('GET', '/api/drafts/chains/fresh');
    expect(got.status).toBe(200);
    expect(got.json).toMatchObject({
      draft: true,
      base: { 'chains/fresh.yaml': null },
      published: { 'chains/fresh.yaml': null },
    });
    expect(docOf(got, 'chains/fresh.yaml')).toEqual(diskDoc(j, QUICK));
    expect(got.json.result.problems).toEqual([]);
    // The key has a draft now: new_chain is only for a key with neither.
    expectRefused(
      await postOps(j, 'chains', 'fresh', [{ op: 'new_chain' }]),
      0,
      /^chain `fresh` already exists/,
    );

    expect((await publish('fresh')).json.published).toEqual(['chains/fresh.yaml']);
    expect(parse(j.disk('chains/fresh.yaml')!)).toEqual(diskDoc(j, QUICK));
    expect(await chainIds()).toContain('fresh');

    const del = await postOps(j, 'chains', 'fresh', [{ op: 'delete_chain' }]);
    expect(del.status).toBe(200);
    expect(del.json.ops).toEqual([{ op: 'delete_chain' }]);
    expect(del.json.files).toEqual({ 'chains/fresh.yaml': null });
    expect(del.json.result.changes).toEqual([
      { path: '', kind: 'change', summary: 'changed description', fields: ['description'] },
      { path: 'implementation', kind: 'remove', summary: 'node removed' },
      { path: 'verify', kind: 'remove', summary: 'node removed' },
      { path: 'verify.main.verify', kind: 'remove', summary: 'task removed' },
    ]);
    const gone = await publish('fresh');
    expect(gone.status).toBe(200);
    expect(gone.json.published).toEqual(['chains/fresh.yaml']);
    expect(j.disk('chains/fresh.yaml')).toBeNull();
    expect(await chainIds()).toEqual(['default', 'manual', 'merge-request', 'quick-task']);
    expect((await j.call('GET', '/api/drafts/chains/fresh')).status).toBe(404);
  });

  it("copies from the other chain's draft when it has one", async () => {
    await postOps(j, 'chains', 'quick-task', [
      { op: 'set_field', path: '', field: 'description', value: 'Drafted copy.' },
    ]);
    const res = await postOps(j, 'chains', 'fresh', [{ op: 'new_chain', from: 'quick-task' }]);
    expect(res.status).toBe(200);
    expect(docOf(res, 'chains/fresh.yaml')).toEqual({ ...diskDoc(j, QUICK), description: 'Drafted copy.' });
    // The source's draft is its own: untouched.
    expect(docOf(await j.call('GET', '/api/drafts/chains/quick-task'), QUICK).description).toBe(
      'Drafted copy.',
    );
  });

  it('starts an empty chain without `from`, a problem until it has a node', async () => {
    const res = await postOps(j, 'chains', 'blank', [{ op: 'new_chain' }]);
    expect(res.status).toBe(200);
    expect(docOf(res, 'chains/blank.yaml')).toEqual({ nodes: [] });
    expect(res.json.result.problems.length).toBeGreaterThan(0);
    expect((await publish('blank')).status).toBe(422);
    const filled = await postOps(j, 'chains', 'blank', [{ op: 'add_node', at: 0, id: 'look', kind: 'gate' }]);
    expect(docOf(filled, 'chains/blank.yaml')).toEqual({ nodes: [{ id: 'look', kind: 'gate' }] });
    await discard(j, 'chains', 'blank');
  });

  it('refuses new_chain from a chain that does not exist', async () => {
    expectRefused(
      await postOps(j, 'chains', 'copy', [{ op: 'new_chain', from: 'nope' }]),
      0,
      'from `nope` names no chain',
    );
    expect((await j.call('GET', '/api/drafts/chains/copy')).status).toBe(404);
  });

  it('makes deleting a repo’s default chain a problem that stops the publish', async () => {
    const repo = repoDefaulting('quick-task');
    const res = await postOps(j, 'chains', 'quick-task', [{ op: 'delete_chain' }]);
    expect(res.status).toBe(200);
    expect(res.json.result.problems).toEqual([
      expect.objectContaining({
        path: repo,
        field: 'default_chain',
        file: 'repos.yaml',
        message: expect.stringMatching(/this draft deletes it/),
      }),
    ]);
    expect((await publish('quick-task')).status).toBe(422);
    expect(j.disk(QUICK)).not.toBeNull();
  });
});

describe('fragments', () => {
  it('reads the fragment from the draft when open; set_fragment of that text changes nothing', async () => {
    const opened = await postOps(j, 'chains', 'quick-task', [
      { op: 'set_field', path: 'verify', field: 'description', value: 'Drafted.' },
    ]);
    expect(opened.status).toBe(200);
    const fragment = await j.call('GET', '/api/drafts/chains/quick-task/fragment?path=verify');
    expect(fragment.status).toBe(200);
    expect(fragment.json.path).toBe('verify');
    expect(parse(fragment.json.text)).toEqual({ ...diskDoc(j, QUICK).nodes[1], description: 'Drafted.' });
    const same = await postOps(j, 'chains', 'quick-task', [
      { op: 'set_fragment', path: 'verify', yaml: fragment.json.text },
    ]);
    expect(same.status).toBe(200);
    expect(same.json.ops).toEqual([{ op: 'set_fragment' }]);
    expect(same.json.files).toEqual(opened.json.files);
    // Nothing changed, so no undo step: one undo goes back past the set_field.
    expect((await j.call('POST', '/api/drafts/chains/quick-task/undo')).json.draft).toBe(false);
  });

  it('reads the tasks shorthand as step main and takes it back unchanged', async () => {
    const fragment = await j.call('GET', '/api/drafts/chains/quick-task/fragment?path=verify.main');
    expect(fragment.status).toBe(200);
    expect(parse(fragment.json.text)).toEqual({
      id: 'main',
      tasks: [{ id: 'verify', extends: 'verify_changed_scopes' }],
    });
    const same = await postOps(j, 'chains', 'quick-task', [
      { op: 'set_fragment', path: 'verify.main', yaml: fragment.json.text },
    ]);
    expect(same.status).toBe(200);
    expect(same.json.draft).toBe(false);
    expect((await j.call('GET', '/api/drafts')).json).toEqual([]);
  });

  it('answers 422 with line and col (counted in the fragment) for YAML that does not parse', async () => {
    const res = await postOps(j, 'chains', 'quick-task', [
      { op: 'set_fragment', path: 'verify', yaml: 'id: verify\ndescription: "open\n' },
    ]);
    // The quote is still open where the text ends: line 3, after the last newline.
    expectRefused(res, 0, 'yaml does not parse at line 3, column 1: Missing closing "quote', {
      line: 3,
      col: 1,
    });
    expect((await j.call('GET', '/api/drafts/chains/quick-task')).json.draft).toBe(false);
  });
});
