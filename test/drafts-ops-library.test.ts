import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sha256Text } from '../src/runtime/config/config-dir.js';
import { draftsJig, type DraftsJig } from './helpers/drafts.js';
import {
  changedLines,
  discard,
  diskDoc,
  docOf,
  expectRefused,
  postOps,
  snapshot,
} from './helpers/drafts-ops.js';
import { cleanupAll, tempHome, type HttpResult } from './helpers/server.js';

/*
 * The ops through `POST /api/drafts/library/library/ops` (spec drafts.md, "Chain and library
 * ops"): library paths start with the section, every change row says which chains it reaches,
 * and renaming a component used by chains joins those chain files to the library draft.
 */

let j: DraftsJig;
const LIB = 'library.yaml';
const QUICK = 'chains/quick-task.yaml';
const ALL_CHAINS = ['default', 'merge-request', 'quick-task'];
let reposText: string;

beforeAll(async () => {
  j = await draftsJig();
  reposText = j.disk('repos.yaml')!;
});
afterEach(async () => {
  await discard(j, 'library', 'library');
  writeFileSync(join(j.home, 'config', 'repos.yaml'), reposText);
});
afterAll(async () => {
  await j.srv.close();
  await cleanupAll();
});

async function apply(ops: unknown[]): Promise<HttpResult> {
  const res = await postOps(j, 'library', 'library', ops);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  const { ops: answered, ...view } = res.json;
  expect((await j.call('GET', '/api/drafts/library/library')).json).toEqual(view);
  expect(answered).toHaveLength(ops.length);
  return res;
}

describe('library ops', () => {
  it('add_component adds a task, a steering entry and a gate node, each a problem until filled in', async () => {
    const libText = j.disk(LIB)!;
    const res = await apply([
      { op: 'add_component', section: 'tasks', name: 'reviewer', kind: 'agent' },
      { op: 'add_component', section: 'steering', name: 'style' },
      { op: 'add_component', section: 'nodes', name: 'review_gate', kind: 'gate' },
    ]);
    expect(res.json.ops).toEqual([
      { op: 'add_component', result: { path: 'tasks.reviewer' } },
      { op: 'add_component', result: { path: 'steering.style' } },
      { op: 'add_component', result: { path: 'nodes.review_gate' } },
    ]);
    const want = diskDoc(j, LIB);
    want.tasks.reviewer = { kind: 'agent' };
    want.steering.style = { instructions: '' };
    want.nodes.review_gate = { kind: 'gate' };
    expect(docOf(res, LIB)).toEqual(want);
    expect(res.json).toMatchObject({
      area: 'library',
      key: 'library',
      draft: true,
      base: { [LIB]: sha256Text(libText) },
      published: { [LIB]: libText },
    });
    expect(res.json.result.changes).toEqual([
      { path: 'nodes.review_gate', kind: 'add', summary: 'node added', reaches: [] },
      { path: 'tasks.reviewer', kind: 'add', summary: 'task added', reaches: [] },
      { path: 'steering.style', kind: 'add', summary: 'steering added', reaches: [] },
    ]);
    // library.yaml fails its schema first; the task's own check runs once the library loads.
    expect(res.json.result.problems).toEqual([
      {
        path: 'steering.style',
        field: 'instructions',
        message: 'steering needs instructions',
        file: LIB,
        line: expect.any(Number),
        col: expect.any(Number),
        chain: null,
        repo: null,
        component: 'steering.style',
      },
    ]);
    expect(res.json.result.resolved).toBeNull();
    expect(res.json.result.impact).toEqual({ chains: [], repos: [] });
    expect(res.json.result.warnings).toEqual([]);
    const filled = await apply([
      { op: 'set_field', path: 'steering.style', field: 'instructions', value: 'Short lines.' },
    ]);
    expect(filled.json.result.problems).toEqual([
      expect.objectContaining({
        path: 'tasks.reviewer',
        field: 'prompt',
        message: 'an agent task needs a prompt',
        file: LIB,
        chain: null,
        repo: null,
        component: 'tasks.reviewer',
      }),
    ]);
  });

  it('set_field on a task: its change row reaches the chains using it, as does the impact', async () => {
    const res = await apply([
      { op: 'set_field', path: 'tasks.implementer', field: 'policy.time_cap_minutes', value: 90 },
    ]);
    expect(res.json.ops).toEqual([{ op: 'set_field' }]);
    const want = diskDoc(j, LIB);
    want.tasks.implementer.policy.time_cap_minutes = 90;
    expect(docOf(res, LIB)).toEqual(want);
    expect(res.json.result.changes).toEqual([
      {
        path: 'tasks.implementer',
        kind: 'change',
        summary: 'changed policy',
        fields: ['policy'],
        reaches: ALL_CHAINS,
      },
    ]);
    expect(res.json.result.impact).toEqual({ chains: ALL_CHAINS, repos: [] });
    const list = (await j.call('GET', '/api/drafts')).json;
    expect(list).toEqual([
      {
        area: 'library',
        key: 'library',
        files: [LIB],
        changes: 1,
        problems: 0,
        updated_at: expect.any(String),
      },
    ]);
  });

  it('applies the structure ops on library paths in one request', async () => {
    const res = await apply([
      { op: 'add_step', container: 'nodes.verification', at: 2, id: 'lint' },
      { op: 'add_task', container: 'nodes.verification', step: 'lint', extends: 'code_review', id: 'second' },
      { op: 'move', path: 'nodes.verification.review', to: 0 },
      { op: 'add_handler', path: 'nodes.implementation', kind: 'on_failure' },
      { op: 'remove_handler', path: 'nodes.post_draft_feedback', kind: 'on_failure' },
      { op: 'reset_field', path: 'tasks.implementer', field: 'profile' },
      {
        op: 'set_fragment',
        path: 'tasks.mr_rebase',
        yaml: 'kind: builtin\nref: jig.mr_rebase\nscope: each_repository\n',
      },
      { op: 'rename', path: 'nodes.verification.tests.verify', id: 'run_tests' },
    ]);
    expect(res.json.ops).toEqual([
      { op: 'add_step', result: { path: 'nodes.verification.lint' } },
      { op: 'add_task', result: { path: 'nodes.verification.lint.second' } },
      { op: 'move' },
      { op: 'add_handler', result: { path: 'nodes.implementation.on_failure' } },
      { op: 'remove_handler' },
      { op: 'reset_field' },
      { op: 'set_fragment' },
      { op: 'rename', result: { updated: [] } },
    ]);
    const want = diskDoc(j, LIB);
    const [tests, review] = want.nodes.verification.steps;
    tests.tasks[0].id = 'run_tests';
    want.nodes.verification.steps = [
      review,
      tests,
      { id: 'lint', tasks: [{ id: 'second', extends: 'code_review' }] },
    ];
    want.nodes.implementation.on_failure = { tasks: [] };
    delete want.nodes.post_draft_feedback.on_failure;
    delete want.tasks.implementer.profile;
    want.tasks.mr_rebase.scope = 'each_repository';
    expect(docOf(res, LIB)).toEqual(want);
    const moved = res.json.result.changes.find(
      (c: { path: string }) => c.path === 'nodes.verification.review',
    );
    expect(moved).toEqual({
      path: 'nodes.verification.review',
      kind: 'change',
      summary: 'moved',
      fields: [],
      reaches: ['default', 'merge-request'],
    });
    expect(res.json.result.impact.chains).toEqual(ALL_CHAINS);
  });

  it('extend and change_base rebase a library node on another', async () => {
    const res = await apply([
      { op: 'add_component', section: 'nodes', name: 'checks' },
      { op: 'set_field', path: 'nodes.checks', field: 'description', value: 'Checks.' },
      { op: 'extend', node: 'nodes.checks', base: 'verification' },
      { op: 'change_base', node: 'nodes.checks', base: 'implementation' },
    ]);
    expect(res.json.ops.slice(2)).toEqual([
      { op: 'extend', result: { dropped: [] } },
      { op: 'change_base', result: { kept: ['description'], dropped: [] } },
    ]);
    expect(docOf(res, LIB).nodes.checks).toEqual({ extends: 'implementation', description: 'Checks.' });
  });

  it('remove answers each extends and steering entry it leaves dangling, in the library and chains', async () => {
    const res = await apply([
      { op: 'remove', path: 'tasks.describe_mr' },
      { op: 'remove', path: 'steering.project-standards' },
    ]);
    expect(res.json.ops).toEqual([
      {
        op: 'remove',
        result: {
          broken: [
            {
              file: 'chains/merge-request.yaml',
              path: 'describe_merge_request.main.author',
              field: 'extends',
            },
          ],
        },
      },
      { op: 'remove', result: { broken: [{ file: LIB, path: 'tasks.spec_author', field: 'steering' }] } },
    ]);
    const want = diskDoc(j, LIB);
    delete want.tasks.describe_mr;
    delete want.steering['project-standards'];
    expect(docOf(res, LIB)).toEqual(want);
    expect(res.json.result.problems).toEqual([
      {
        path: 'tasks.spec_author',
        field: 'steering',
        message: 'steering `project-standards` is not in library.yaml `steering:`',
        file: LIB,
        // The line in the file as written: the op kept its comments and layout.
        line: 136,
        col: 9,
        chain: null,
        repo: null,
        component: 'tasks.spec_author',
      },
      {
        path: 'describe_merge_request.main.author',
        field: 'extends',
        message: 'extends `describe_mr`: no library task has that name',
        file: 'chains/merge-request.yaml',
        line: 72,
        col: 18,
        chain: 'merge-request',
        repo: null,
        component: 'tasks.describe_mr',
      },
    ]);
    expect((await j.call('POST', '/api/drafts/library/library/publish')).status).toBe(422);
  });

  it('lists the repos whose steering names a changed entry', async () => {
    const dir = join(tempHome('jig-ops-repo-'), 'repo');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(j.home, 'config', 'repos.yaml'),
      `repos:\n  - path: ${dir}\n    steering: [project-standards]\n`,
    );
    const res = await apply([
      { op: 'set_field', path: 'steering.project-standards', field: 'instructions', value: 'Be brief.' },
    ]);
    expect(res.json.result.changes).toEqual([
      {
        path: 'steering.project-standards',
        kind: 'change',
        summary: 'changed instructions',
        fields: ['instructions'],
        reaches: ['default', 'merge-request'],
      },
    ]);
    expect(res.json.result.impact).toEqual({ chains: ['default', 'merge-request'], repos: [dir] });
  });

  it('refuses a library op at its index, saving nothing', async () => {
    await apply([{ op: 'set_field', path: 'tasks.implementer', field: 'description', value: 'Open.' }]);
    const before = await snapshot(j, 'library', 'library');
    const res = await postOps(j, 'library', 'library', [
      { op: 'add_component', section: 'tasks', name: 'extra', kind: 'subprocess' },
      { op: 'rename', path: 'tasks.implementer', id: 'plan_author' },
    ]);
    expectRefused(res, 1, /`plan_author` is already taken/);
    expect(await snapshot(j, 'library', 'library')).toEqual(before);
    expectRefused(
      await postOps(j, 'library', 'library', [{ op: 'remove', path: 'implementer' }]),
      0,
      'nothing at path `implementer`',
    );
  });
});

describe('rename of a component used by chains', () => {
  it('joins each chain file it rewrites; a publish writes them all and the chains resolve', async () => {
    const libText = j.disk(LIB)!;
    const quickText = j.disk(QUICK)!;
    const res = await apply([{ op: 'rename', path: 'tasks.verify_changed_scopes', id: 'verify_scopes' }]);
    expect(res.json.ops).toEqual([
      {
        op: 'rename',
        result: {
          updated: [
            { file: LIB, path: 'nodes.verification.tests.verify', field: 'extends' },
            { file: QUICK, path: 'verify.main.verify', field: 'extends' },
          ],
        },
      },
    ]);
    expect(res.json.base).toEqual({ [LIB]: sha256Text(libText), [QUICK]: sha256Text(quickText) });
    expect(res.json.published).toEqual({ [LIB]: libText, [QUICK]: quickText });
    const lib = diskDoc(j, LIB);
    lib.tasks = Object.fromEntries(
      Object.entries(lib.tasks).map(([k, v]) => [k === 'verify_changed_scopes' ? 'verify_scopes' : k, v]),
    );
    lib.nodes.verification.steps[0].tasks[0].extends = 'verify_scopes';
    expect(docOf(res, LIB)).toEqual(lib);
    const chain = diskDoc(j, QUICK);
    chain.nodes[1].tasks[0].extends = 'verify_scopes';
    expect(docOf(res, QUICK)).toEqual(chain);
    expect(res.json.result.problems).toEqual([]);
    expect(res.json.result.warnings).toEqual([]);
    // Written over each file's text: only the renamed lines differ, comments and all kept.
    expect(changedLines(libText, res.json.files[LIB])).toEqual([
      ['            extends: verify_changed_scopes', '            extends: verify_scopes'],
      ['  verify_changed_scopes:', '  verify_scopes:'],
    ]);
    expect(changedLines(quickText, res.json.files[QUICK])).toEqual([
      [
        '        extends: verify_changed_scopes # library task (library.yaml `tasks:`)',
        '        extends: verify_scopes # library task (library.yaml `tasks:`)',
      ],
    ]);
    expect((await j.call('GET', '/api/drafts')).json).toMatchObject([
      { area: 'library', files: [QUICK, LIB] },
    ]);

    const done = await j.call('POST', '/api/drafts/library/library/publish');
    expect(done.status).toBe(200);
    expect(done.json.published).toEqual([QUICK, LIB]);
    expect(parse(j.disk(LIB)!)).toEqual(lib);
    expect(parse(j.disk(QUICK)!)).toEqual(chain);
    for (const id of ALL_CHAINS) {
      const resolved = await j.call('GET', `/api/templates/chains/${id}/resolved`);
      expect(resolved.status, id).toBe(200);
      expect(JSON.stringify(resolved.json)).toContain('jig.verify_changed_test_scopes');
    }
    expect((await j.call('GET', '/api/drafts')).json).toEqual([]);
    writeFileSync(join(j.home, 'config', LIB), libText);
    writeFileSync(join(j.home, 'config', QUICK), quickText);
    expect((await j.call('POST', '/api/templates/reload')).status).toBe(200);
  });
});
