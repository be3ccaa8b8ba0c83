import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { draftsJig, type DraftsJig } from './helpers/drafts.js';
import { discard, expectRefused, postOps, snapshot } from './helpers/drafts-ops.js';
import { cleanupAll } from './helpers/server.js';

/*
 * The ops request as a whole (spec drafts.md, "Changing a draft"): all or nothing, one undo step,
 * `?preview=1` saving nothing, and every op's refusal answered with that op's index while the
 * draft, its undo steps and the draft list stay as they were.
 */

let j: DraftsJig;

beforeAll(async () => {
  j = await draftsJig();
});
afterAll(async () => {
  await j.srv.close();
  await cleanupAll();
});

const describeChain = (d: string) => ({ op: 'set_field', path: '', field: 'description', value: d });
const describeTask = (d: string) => ({
  op: 'set_field',
  path: 'tasks.implementer',
  field: 'description',
  value: d,
});

interface Refusal {
  name: string;
  area: 'chains' | 'library';
  key: string;
  /** The op refused, sent second: an op the draft takes goes first. */
  bad: Record<string, unknown>;
  detail: string | RegExp;
  extra?: Record<string, unknown>;
  /** Another first op, when the refused one needs the draft set up by it. */
  first?: Record<string, unknown>;
}

/** One refusal of each op from the spec's table, on the area it applies to. */
const REFUSALS: Refusal[] = [
  {
    name: 'add_node: at outside the list',
    area: 'chains',
    key: 'quick-task',
    bad: { op: 'add_node', at: 9, id: 'late', kind: 'exec' },
    detail: 'at 9 is outside the list: 0 to 2',
  },
  {
    name: 'add_step: nothing at container',
    area: 'chains',
    key: 'quick-task',
    bad: { op: 'add_step', container: 'nowhere', at: 0 },
    detail: 'nothing at path `nowhere`',
  },
  {
    name: 'add_task: both kind and extends',
    area: 'chains',
    key: 'quick-task',
    bad: { op: 'add_task', container: 'verify', step: 'main', kind: 'agent', extends: 'code_review' },
    detail: /^give `kind` or `extends`, not both/,
  },
  {
    name: 'add_handler: bad kind',
    area: 'chains',
    key: 'quick-task',
    bad: { op: 'add_handler', path: 'verify', kind: 'retry' },
    detail: 'kind `retry` is not a handler: `on_failure`, `fix_loop` or `on_conflict`',
  },
  {
    name: 'remove_handler: none there',
    area: 'chains',
    key: 'quick-task',
    bad: { op: 'remove_handler', path: 'verify', kind: 'fix_loop' },
    detail: '`verify` has no `fix_loop` to remove',
  },
  {
    name: 'move: to outside the list',
    area: 'chains',
    key: 'quick-task',
    bad: { op: 'move', path: 'verify', to: 5 },
    detail: /5 is outside the list: 0 to 1/,
  },
  {
    name: 'move: a node move adding an order problem',
    area: 'chains',
    key: 'default',
    bad: { op: 'move', path: 'plan_approval', to: 1 },
    detail: /^moving `plan_approval` to 1 adds an order problem: /,
  },
  {
    name: 'remove: nothing at path',
    area: 'chains',
    key: 'quick-task',
    bad: { op: 'remove', path: 'verify.nope' },
    detail: 'nothing at path `verify.nope`',
  },
  {
    name: 'extend: the library has no such node',
    area: 'chains',
    key: 'quick-task',
    bad: { op: 'extend', node: 'verify', base: 'nope' },
    detail: 'the library has no node `nope`',
  },
  {
    name: 'change_base: nothing at node',
    area: 'chains',
    key: 'quick-task',
    bad: { op: 'change_base', node: 'checks', base: 'verification' },
    detail: 'nothing at path `checks`',
  },
  {
    name: 'new_chain: the key already has a chain',
    area: 'chains',
    key: 'quick-task',
    bad: { op: 'new_chain', from: 'default' },
    detail: /^chain `quick-task` already exists: new_chain is only for a key with no file and no draft/,
  },
  {
    name: 'delete_chain: the key has no chain (any more)',
    area: 'chains',
    key: 'quick-task',
    first: { op: 'delete_chain' },
    bad: { op: 'delete_chain' },
    detail: 'chain `quick-task` has no file to delete',
  },
  {
    name: 'set_field: field id',
    area: 'chains',
    key: 'quick-task',
    bad: { op: 'set_field', path: 'verify', field: 'id', value: 'check' },
    detail: /^field `id` is changed with rename/,
  },
  {
    name: 'reset_field: no field, and the component extends nothing',
    area: 'chains',
    key: 'quick-task',
    bad: { op: 'reset_field', path: 'verify' },
    detail: '`verify` extends nothing, so it has no overrides: name the field to reset',
  },
  {
    name: 'rename: id taken',
    area: 'chains',
    key: 'quick-task',
    bad: { op: 'rename', path: 'verify', id: 'implementation' },
    detail: /`implementation` is already taken/,
  },
  {
    name: 'rename: the chain to an existing chain',
    area: 'chains',
    key: 'quick-task',
    bad: { op: 'rename', path: '', id: 'default' },
    detail: 'chain `default` already exists',
  },
  {
    name: 'set_fragment: changes the id',
    area: 'chains',
    key: 'quick-task',
    bad: { op: 'set_fragment', path: 'verify', yaml: 'id: checks\nkind: exec\n' },
    detail: 'the fragment changes the id of `verify` to "checks": use rename',
  },
  {
    name: 'set_fragment: YAML that does not parse',
    area: 'chains',
    key: 'quick-task',
    bad: { op: 'set_fragment', path: 'verify', yaml: 'id: verify\nkind: [\n' },
    detail: /^yaml does not parse at line 3, column 1: /,
    extra: { line: 3, col: 1 },
  },
  {
    name: 'move_to_library: a step',
    area: 'chains',
    key: 'quick-task',
    bad: { op: 'move_to_library', path: 'verify.main', name: 'checks' },
    detail: /is a step/,
  },
  {
    name: 'move_to_library: the name is taken in its section',
    area: 'chains',
    key: 'quick-task',
    bad: { op: 'move_to_library', path: 'verify.main.verify', name: 'implementer' },
    detail: /`tasks.implementer`/,
  },
  {
    name: 'add_component: the name is taken',
    area: 'library',
    key: 'library',
    bad: { op: 'add_component', section: 'tasks', name: 'implementer', kind: 'agent' },
    detail: 'library.yaml already has `tasks.implementer`',
  },
  {
    name: 'add_component: a kind for steering',
    area: 'library',
    key: 'library',
    bad: { op: 'add_component', section: 'steering', name: 'style', kind: 'agent' },
    detail: 'kind is not taken for `steering`: only nodes and tasks have a kind',
  },
  {
    name: 'add_node on the library',
    area: 'library',
    key: 'library',
    bad: { op: 'add_node', at: 0, id: 'first', kind: 'exec' },
    detail: 'add_node applies only on a chains draft',
  },
  {
    name: 'add_component on a chain',
    area: 'chains',
    key: 'quick-task',
    bad: { op: 'add_component', section: 'tasks', name: 'helper' },
    detail: 'add_component applies only on the library draft',
  },
  {
    name: 'rename of the chain on the library',
    area: 'library',
    key: 'library',
    bad: { op: 'rename', path: '', id: 'other' },
    detail: 'renaming the chain applies only on a chains draft',
  },
  {
    name: 'unknown op name',
    area: 'chains',
    key: 'quick-task',
    bad: { op: 'frobnicate', path: 'verify' },
    detail: 'ops.1.op: unknown op `frobnicate`',
  },
  {
    name: 'unknown field',
    area: 'chains',
    key: 'quick-task',
    bad: { op: 'remove', path: 'verify', force: true },
    detail: /^ops\.1: .*"force"/,
  },
  {
    name: 'missing required field',
    area: 'library',
    key: 'library',
    bad: { op: 'add_component', section: 'tasks' },
    detail: /^ops\.1\.name: /,
  },
  {
    name: 'set_field without value',
    area: 'chains',
    key: 'quick-task',
    bad: { op: 'set_field', path: '', field: 'description' },
    // zod answers for the missing key before the schema's own message runs.
    detail: /^ops\.1\.value: /,
  },
];

describe('refusals: the op index, nothing saved, the preview refusing the same', () => {
  // An open draft on each key, one undo step each, so "nothing saved" is checked against a draft.
  beforeAll(async () => {
    for (const key of ['quick-task', 'default']) {
      expect((await postOps(j, 'chains', key, [describeChain('Drafted.')])).status).toBe(200);
    }
    expect((await postOps(j, 'library', 'library', [describeTask('Drafted.')])).status).toBe(200);
  });

  it.each(REFUSALS)('$name', async ({ area, key, bad, detail, extra, first }) => {
    const before = await snapshot(j, area, key);
    const ops = [first ?? (area === 'library' ? describeTask('Other.') : describeChain('Other.')), bad];
    const res = await postOps(j, area, key, ops);
    expectRefused(res, 1, detail, extra);
    expect(await snapshot(j, area, key)).toEqual(before);
    const preview = await postOps(j, area, key, ops, true);
    expect(preview.status).toBe(422);
    expect(preview.json).toEqual(res.json);
    expect(await snapshot(j, area, key)).toEqual(before);
  });

  it('pushed no undo step: one undo takes each draft back to published', async () => {
    for (const [area, key] of [
      ['chains', 'quick-task'],
      ['chains', 'default'],
      ['library', 'library'],
    ] as const) {
      const undone = await j.call('POST', `/api/drafts/${area}/${key}/undo`);
      expect(undone.status).toBe(200);
      expect(undone.json.draft).toBe(false);
    }
    expect((await j.call('GET', '/api/drafts')).json).toEqual([]);
  });
});

describe('all or nothing, one undo step per request', () => {
  it('a refused second op leaves no draft behind when there was none', async () => {
    const res = await postOps(j, 'chains', 'quick-task', [
      describeChain('Never saved.'),
      { op: 'remove', path: 'nowhere' },
    ]);
    expectRefused(res, 1, 'nothing at path `nowhere`');
    const after = await j.call('GET', '/api/drafts/chains/quick-task');
    expect(after.json).toMatchObject({
      draft: false,
      files: { 'chains/quick-task.yaml': j.disk('chains/quick-task.yaml') },
    });
    expect((await j.call('GET', '/api/drafts')).json).toEqual([]);
  });

  it('one request of several ops is one undo step', async () => {
    const first = await postOps(j, 'chains', 'quick-task', [describeChain('One.')]);
    expect(first.status).toBe(200);
    await j.clock.advance(1000);
    const second = await postOps(j, 'chains', 'quick-task', [
      describeChain('Two.'),
      { op: 'add_node', at: 2, id: 'check', kind: 'gate' },
      { op: 'rename', path: 'verify', id: 'tests' },
    ]);
    expect(second.status).toBe(200);
    expect(second.json.ops).toEqual([
      { op: 'set_field' },
      { op: 'add_node' },
      { op: 'rename', result: { updated: [] } },
    ]);
    const back = await j.call('POST', '/api/drafts/chains/quick-task/undo');
    expect(back.status).toBe(200);
    expect(back.json.files).toEqual(first.json.files);
    expect(back.json.result.changes).toEqual(first.json.result.changes);
    const gone = await j.call('POST', '/api/drafts/chains/quick-task/undo');
    expect(gone.json.draft).toBe(false);
    expect((await j.call('POST', '/api/drafts/chains/quick-task/undo')).status).toBe(409);
  });
});

describe('?preview=1', () => {
  it('answers what the ops would make and saves nothing: draft, undo steps, list', async () => {
    const opened = await postOps(j, 'chains', 'default', [describeChain('Open.')]);
    expect(opened.status).toBe(200);
    const before = await snapshot(j, 'chains', 'default');
    const ops = [
      { op: 'add_node', at: 0, id: 'triage', kind: 'gate' },
      { op: 'change_base', node: 'verification', base: 'implementation' },
    ];
    const preview = await postOps(j, 'chains', 'default', ops, true);
    expect(preview.status).toBe(200);
    expect(await snapshot(j, 'chains', 'default')).toEqual(before);
    // The same answer the request gives when it saves.
    const saved = await postOps(j, 'chains', 'default', ops);
    expect(saved.status).toBe(200);
    expect(preview.json).toEqual(saved.json);
    expect(preview.json.ops[1]).toMatchObject({ op: 'change_base', result: { kept: ['description'] } });
    // Two undo steps: the preview pushed none.
    expect((await j.call('POST', '/api/drafts/chains/default/undo')).json.files).toEqual(opened.json.files);
    expect((await j.call('POST', '/api/drafts/chains/default/undo')).json.draft).toBe(false);
    expect((await j.call('POST', '/api/drafts/chains/default/undo')).status).toBe(409);
  });

  it('opens no draft when there is none', async () => {
    const preview = await postOps(j, 'library', 'library', [describeTask('Peek.')], true);
    expect(preview.status).toBe(200);
    expect(preview.json.ops).toEqual([{ op: 'set_field' }]);
    expect(preview.json.result.changes).toEqual([
      expect.objectContaining({ path: 'tasks.implementer', kind: 'change', fields: ['description'] }),
    ]);
    const after = await j.call('GET', '/api/drafts/library/library');
    expect(after.json.draft).toBe(false);
    expect(after.json.result.changes).toEqual([]);
    expect((await j.call('GET', '/api/drafts')).json).toEqual([]);
    expect((await j.call('POST', '/api/drafts/library/library/undo')).status).toBe(409);
  });
});

describe('malformed requests', () => {
  it('refuses an op list that is empty or missing, or a body with other keys', async () => {
    for (const body of [{ ops: [] }, {}, { ops: [{ op: 'remove', path: 'verify' }], preview: true }]) {
      const res = await j.call('POST', '/api/drafts/chains/quick-task/ops', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.json.code).toBe('validation_failed');
    }
    expect((await j.call('GET', '/api/drafts')).json).toEqual([]);
  });

  it('refuses the whole request for a malformed op, even one after an op that would apply', async () => {
    const res = await postOps(j, 'chains', 'quick-task', [
      { op: 'remove', path: 'nowhere' },
      { op: 'add_node', at: 0, id: 'x' },
    ]);
    // The malformed op is found before any op applies: its index, not the first op's refusal.
    expectRefused(res, 1, /^ops\.1\.kind: /);
  });

  it('refuses an unknown area with 404 and a key the area does not take with 400', async () => {
    expect((await postOps(j, 'widgets', 'x', [describeChain('x')])).status).toBe(404);
    expect((await postOps(j, 'library', 'other', [describeTask('x')])).status).toBe(400);
    expect((await postOps(j, 'chains', 'Bad_Key', [describeChain('x')])).status).toBe(400);
  });

  it('refuses ops on a chain key with neither file nor draft as the op that finds nothing', async () => {
    const res = await postOps(j, 'chains', 'ghost', [describeChain('Boo.')]);
    expectRefused(res, 0, /nothing at path/);
    expect((await j.call('GET', '/api/drafts/chains/ghost')).status).toBe(404);
    await discard(j, 'chains', 'ghost');
  });
});
