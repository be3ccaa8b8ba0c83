import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sha256Text } from '../src/runtime/config/config-dir.js';
import { draftsJig, type DraftsJig } from './helpers/drafts.js';
import { discard, diskDoc, docOf, postOps } from './helpers/drafts-ops.js';
import { cleanupAll, type HttpResult } from './helpers/server.js';

/*
 * The chain ops through `POST /api/drafts/chains/{key}/ops` on the seeded chains: each op's answer,
 * the chain file it leaves in the draft (parsed back), and the result rows it shows. The ops' own
 * edge cases are unit-tested next to them (src/core/drafts/ops); this is the route around them.
 */

let j: DraftsJig;
const QUICK = 'chains/quick-task.yaml';
const DEF = 'chains/default.yaml';

beforeAll(async () => {
  j = await draftsJig();
});
afterEach(async () => {
  await discard(j, 'chains', 'quick-task');
  await discard(j, 'chains', 'default');
});
afterAll(async () => {
  await j.srv.close();
  await cleanupAll();
});

/** Applies ops to a chain's draft: 200, and the answer is the stored draft's plus `ops`. */
async function apply(key: string, ops: unknown[]): Promise<HttpResult> {
  const res = await postOps(j, 'chains', key, ops);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  const { ops: answered, ...view } = res.json;
  expect((await j.call('GET', `/api/drafts/chains/${key}`)).json).toEqual(view);
  expect(answered).toHaveLength(ops.length);
  return res;
}

/** A node of a parsed chain, by id. */
const nodeIn = (doc: any, id: string): any => doc.nodes.find((n: { id: string }) => n.id === id);

describe('each chain op through the route', () => {
  it('add_node inserts the node; the draft answer is complete and its change an `add` row', async () => {
    const published = j.disk(QUICK)!;
    const res = await apply('quick-task', [{ op: 'add_node', at: 2, id: 'check', kind: 'gate' }]);
    expect(res.json.ops).toEqual([{ op: 'add_node' }]);
    const want = diskDoc(j, QUICK);
    want.nodes.push({ id: 'check', kind: 'gate' });
    expect(docOf(res, QUICK)).toEqual(want);
    expect(res.json).toMatchObject({
      area: 'chains',
      key: 'quick-task',
      draft: true,
      base: { [QUICK]: sha256Text(published) },
      published: { [QUICK]: published },
      updated_at: '2026-11-24T10:00:00.000Z',
    });
    expect(res.json.result.changes).toEqual([{ path: 'check', kind: 'add', summary: 'node added' }]);
    expect(res.json.result.problems).toEqual([]);
    expect(res.json.result.resolved.nodes.map((n: { id: string }) => n.id)).toEqual([
      'implementation',
      'verify',
      'check',
    ]);
    expect(res.json.result.impact).toEqual({ running: 0, repos: [] });
  });

  it('add_step turns the tasks shorthand into `step_1` and adds the new empty step', async () => {
    const res = await apply('quick-task', [{ op: 'add_step', container: 'verify', at: 1, id: 'lint' }]);
    expect(res.json.ops).toEqual([{ op: 'add_step', result: { path: 'verify.lint' } }]);
    const want = diskDoc(j, QUICK);
    const verify = nodeIn(want, 'verify');
    verify.steps = [
      { id: 'step_1', tasks: verify.tasks },
      { id: 'lint', tasks: [] },
    ];
    delete verify.tasks;
    expect(docOf(res, QUICK)).toEqual(want);
    expect(res.json.result.problems).toMatchObject([
      {
        path: 'verify.lint',
        field: 'tasks',
        file: QUICK,
        message: expect.stringMatching(/at least one task/),
      },
    ]);
  });

  it('add_task in its step form and its slot form, answering each path in order', async () => {
    const res = await apply('default', [
      { op: 'add_task', container: 'spec', step: 'main', kind: 'subprocess' },
      { op: 'add_task', slot: 'auto_review', node: 'local_review', extends: 'code_review' },
    ]);
    expect(res.json.ops).toEqual([
      { op: 'add_task', result: { path: 'spec.main.subprocess' } },
      { op: 'add_task', result: { path: 'local_review.auto_review' } },
    ]);
    const want = diskDoc(j, DEF);
    nodeIn(want, 'spec').tasks.push({ id: 'subprocess', kind: 'subprocess' });
    nodeIn(want, 'local_review').auto_review = { id: 'reviewer', extends: 'code_review' };
    expect(docOf(res, DEF)).toEqual(want);
    expect(res.json.result.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'spec.main.subprocess', kind: 'add' }),
        expect.objectContaining({ path: 'local_review.auto_review', kind: 'add' }),
      ]),
    );
  });

  it('add_handler adds an empty plan; remove_handler writes null over an inherited one', async () => {
    const res = await apply('default', [
      { op: 'add_handler', path: 'spec', kind: 'on_failure' },
      { op: 'remove_handler', path: 'verification', kind: 'fix_loop' },
    ]);
    expect(res.json.ops).toEqual([
      { op: 'add_handler', result: { path: 'spec.on_failure' } },
      { op: 'remove_handler' },
    ]);
    const want = diskDoc(j, DEF);
    nodeIn(want, 'spec').on_failure = { tasks: [] };
    nodeIn(want, 'verification').fix_loop = null;
    expect(docOf(res, DEF)).toEqual(want);
    const verification = res.json.result.resolved.nodes.find((n: { id: string }) => n.id === 'verification');
    expect(verification.fix_loop ?? null).toBeNull();
  });

  it('move reorders nodes; the change row says moved', async () => {
    const res = await apply('default', [{ op: 'move', path: 'plan_approval', to: 4 }]);
    expect(res.json.ops).toEqual([{ op: 'move' }]);
    const want = diskDoc(j, DEF);
    const [gate] = want.nodes.splice(3, 1);
    want.nodes.splice(4, 0, gate);
    expect(docOf(res, DEF)).toEqual(want);
    expect(res.json.result.changes).toContainEqual({
      path: 'plan_approval',
      kind: 'change',
      summary: 'moved',
      fields: [],
    });
    expect(res.json.result.problems).toEqual([]);
  });

  it('move of a task to the step beside it', async () => {
    const mr = 'chains/merge-request.yaml';
    const res = await apply('merge-request', [
      { op: 'move', path: 'draft_merge_request.open.open', to: 1, to_step: 'rebase' },
    ]);
    const want = diskDoc(j, mr);
    const node = nodeIn(want, 'draft_merge_request');
    node.steps[0].tasks.push(node.steps[1].tasks[0]);
    node.steps[1].tasks = [];
    expect(docOf(res, mr)).toEqual(want);
    await discard(j, 'chains', 'merge-request');
  });

  it('remove answers the references it leaves dangling', async () => {
    const res = await apply('default', [{ op: 'remove', path: 'plan' }]);
    expect(res.json.ops).toEqual([
      { op: 'remove', result: { broken: [{ path: 'plan_approval', field: 'reject_to' }] } },
    ]);
    const want = diskDoc(j, DEF);
    want.nodes.splice(2, 1);
    expect(docOf(res, DEF)).toEqual(want);
    expect(res.json.result.changes).toEqual(
      expect.arrayContaining([
        { path: 'plan', kind: 'remove', summary: 'node removed' },
        { path: 'plan.main.author', kind: 'remove', summary: 'task removed' },
      ]),
    );
    expect(res.json.result.problems).toContainEqual(
      expect.objectContaining({ path: 'plan_approval', field: 'reject_to', file: DEF }),
    );
  });

  it('extend rebuilds a node on a library node, dropping its own steps', async () => {
    const res = await apply('quick-task', [{ op: 'extend', node: 'verify', base: 'verification' }]);
    expect(res.json.ops).toEqual([{ op: 'extend', result: { dropped: ['steps'] } }]);
    const want = diskDoc(j, QUICK);
    want.nodes[1] = {
      id: 'verify',
      extends: 'verification',
      description: nodeIn(want, 'verify').description,
    };
    expect(docOf(res, QUICK)).toEqual(want);
    expect(res.json.result.resolved.nodes[1].steps.map((s: { id: string }) => s.id)).toEqual([
      'tests',
      'review',
    ]);
  });

  it('change_base keeps what still applies and says why it dropped the rest', async () => {
    const res = await apply('quick-task', [{ op: 'change_base', node: 'verify', base: 'implementation' }]);
    expect(res.json.ops).toEqual([
      {
        op: 'change_base',
        result: { kept: ['description', 'tasks'], dropped: [{ key: 'kind', why: 'same as the new base' }] },
      },
    ]);
    const want = diskDoc(j, QUICK);
    const { description, tasks } = nodeIn(want, 'verify');
    want.nodes[1] = { id: 'verify', extends: 'implementation', description, tasks };
    expect(docOf(res, QUICK)).toEqual(want);
  });

  it('set_field sets a chain key and a nested task key; the chain key is one row at ""', async () => {
    const res = await apply('quick-task', [
      { op: 'set_field', path: '', field: 'description', value: 'Quick.' },
      { op: 'set_field', path: 'verify.main.verify', field: 'policy.time_cap_minutes', value: 30 },
    ]);
    expect(res.json.ops).toEqual([{ op: 'set_field' }, { op: 'set_field' }]);
    const want = diskDoc(j, QUICK);
    want.description = 'Quick.';
    nodeIn(want, 'verify').tasks[0].policy = { time_cap_minutes: 30 };
    expect(docOf(res, QUICK)).toEqual(want);
    expect(res.json.result.changes).toEqual([
      { path: '', kind: 'change', summary: 'changed description', fields: ['description'] },
      { path: 'verify.main.verify', kind: 'change', summary: 'changed policy', fields: ['policy'] },
    ]);
  });

  it('set_field of the value a node inherits removes its override', async () => {
    const inherited = diskDoc(j, 'library.yaml').nodes.verification.description;
    const res = await apply('default', [
      { op: 'set_field', path: 'verification', field: 'description', value: inherited },
    ]);
    const want = diskDoc(j, DEF);
    delete nodeIn(want, 'verification').description;
    expect(docOf(res, DEF)).toEqual(want);
    expect(res.json.result.changes).toEqual([
      { path: 'verification', kind: 'change', summary: 'changed description', fields: ['description'] },
    ]);
  });

  it('reset_field with no field removes every override of a node extending a library one', async () => {
    const res = await apply('default', [{ op: 'reset_field', path: 'implementation' }]);
    expect(res.json.ops).toEqual([{ op: 'reset_field' }]);
    const want = diskDoc(j, DEF);
    want.nodes[4] = { id: 'implementation', extends: 'implementation' };
    expect(docOf(res, DEF)).toEqual(want);
  });

  it('rename of a node rewrites the reject_to naming it', async () => {
    const res = await apply('default', [{ op: 'rename', path: 'plan', id: 'planning' }]);
    expect(res.json.ops).toEqual([
      { op: 'rename', result: { updated: [{ path: 'plan_approval', field: 'reject_to' }] } },
    ]);
    const want = diskDoc(j, DEF);
    nodeIn(want, 'plan').id = 'planning';
    nodeIn(want, 'plan_approval').reject_to = 'planning';
    expect(docOf(res, DEF)).toEqual(want);
    expect(res.json.result.problems).toEqual([]);
  });

  it('set_fragment replaces a component with the YAML given, keeping its id', async () => {
    const yaml =
      'id: verify\nkind: exec\ndescription: Only the tests.\ntasks:\n  - id: verify\n    extends: verify_changed_scopes\n';
    const res = await apply('quick-task', [{ op: 'set_fragment', path: 'verify', yaml }]);
    expect(res.json.ops).toEqual([{ op: 'set_fragment' }]);
    const want = diskDoc(j, QUICK);
    nodeIn(want, 'verify').description = 'Only the tests.';
    expect(docOf(res, QUICK)).toEqual(want);
    expect(res.json.result.changes).toEqual([
      { path: 'verify', kind: 'change', summary: 'changed description', fields: ['description'] },
    ]);
  });
});
