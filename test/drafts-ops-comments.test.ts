import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { diffLines } from 'diff';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { draftsJig, type DraftsJig } from './helpers/drafts.js';
import { changedLines, discard, postOps } from './helpers/drafts-ops.js';
import { cleanupAll } from './helpers/server.js';

/*
 * Issue 48: a graph edit in the chain editor (a chain or library op) used to write the file back
 * whole, dropping its comments and the seeded `$schema` line. Ops now write over the file's own
 * text, so what a publish writes differs from the file before only in the lines the op changed.
 */

let j: DraftsJig;
const QUICK = 'chains/quick-task.yaml';
const DEF = 'chains/default.yaml';
const SCHEMA_LINE = '# yaml-language-server: $schema=../.schemas/chain.schema.json';

const FILES = [QUICK, DEF, 'library.yaml'];
let seeded: Record<string, string>;

beforeAll(async () => {
  j = await draftsJig();
  seeded = Object.fromEntries(FILES.map((f) => [f, j.disk(f)!]));
});
// Each test publishes: put the seeded files back for the next one.
afterEach(async () => {
  for (const key of ['quick-task', 'default', 'quick', 'quick-copy']) await discard(j, 'chains', key);
  await discard(j, 'library', 'library');
  for (const f of FILES) writeFileSync(join(j.home, 'config', f), seeded[f] ?? '');
  rmSync(join(j.home, 'config', 'chains/quick.yaml'), { force: true });
  expect((await j.call('POST', '/api/apply/reload')).status).toBe(200);
});
afterAll(async () => {
  await j.srv.close();
  await cleanupAll();
});

async function applyAndPublish(area: string, key: string, ops: unknown[]): Promise<void> {
  const res = await postOps(j, area, key, ops);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  expect(res.json.result.warnings).toEqual([]);
  expect(res.json.result.problems).toEqual([]);
  const done = await j.call('POST', `/api/drafts/${area}/${key}/publish`);
  expect(done.status, JSON.stringify(done.json)).toBe(200);
}

/** The lines a line diff adds and removes, in order. */
function lineDiff(before: string, after: string): { added: string[]; removed: string[] } {
  const added: string[] = [];
  const removed: string[] = [];
  for (const part of diffLines(before, after)) {
    const lines = part.value.replace(/\n$/, '').split('\n');
    if (part.added) added.push(...lines);
    if (part.removed) removed.push(...lines);
  }
  return { added, removed };
}

describe('chain ops keep the file’s comments', () => {
  it('a one-field change on a seeded chain publishes as a one-line diff', async () => {
    const before = j.disk(DEF)!;
    expect(before.startsWith(`${SCHEMA_LINE}\n`)).toBe(true);
    await applyAndPublish('chains', 'default', [
      { op: 'set_field', path: 'plan', field: 'description', value: 'An agent writes the plan.' },
    ]);
    const after = j.disk(DEF)!;
    expect(changedLines(before, after)).toEqual([
      [
        '    description: An agent turns the approved spec into an implementation plan.',
        '    description: An agent writes the plan.',
      ],
    ]);
    expect(after.startsWith(`${SCHEMA_LINE}\n# The default chain: spec, plan, implementation`)).toBe(true);
  });

  it('an added node adds only its own lines, set apart like its siblings', async () => {
    const before = j.disk(QUICK)!;
    await applyAndPublish('chains', 'quick-task', [
      { op: 'add_node', at: 1, id: 'lint', kind: 'exec' },
      { op: 'add_task', container: 'lint', step: 'main', kind: 'subprocess' },
      { op: 'set_field', path: 'lint.main.subprocess', field: 'run', value: 'npm run lint' },
    ]);
    const after = j.disk(QUICK)!;
    const diff = lineDiff(before, after);
    expect(diff.removed).toEqual([]);
    expect(diff.added.filter((l) => l !== '')).toEqual([
      '  - id: lint',
      '    kind: exec',
      '    tasks:',
      '      - id: subprocess',
      '        kind: subprocess',
      '        run: npm run lint',
    ]);
    expect(diff.added.filter((l) => l === '')).toHaveLength(1);
    expect(after).toContain(
      'commits the change.\n\n  - id: lint\n    kind: exec\n    tasks:\n      - id: subprocess\n        kind: subprocess\n        run: npm run lint\n\n  - id: verify\n',
    );
    expect(after).toContain(
      '    kind: exec # runs tasks (a gate would wait for a person)\n    description: Run the tests',
    );
  });

  it('a moved node carries its comments with it', async () => {
    const before = j.disk(QUICK)!;
    await applyAndPublish('chains', 'quick-task', [{ op: 'move', path: 'verify', to: 0 }]);
    const after = j.disk(QUICK)!;
    expect(after.split('\n').sort()).toEqual(before.split('\n').sort());
    expect(after).toMatch(
      /^nodes:\n {2}- id: verify\n {4}kind: exec # runs tasks \(a gate would wait for a person\)\n/m,
    );
    expect(after).toMatch(/\n\n {2}- id: implementation # unique in the chain;/);
  });

  it('a renamed chain and a copied chain keep the comments of the file they come from', async () => {
    const source = j.disk(QUICK)!;
    const copy = await postOps(j, 'chains', 'quick-copy', [{ op: 'new_chain', from: 'quick-task' }]);
    expect(copy.status, JSON.stringify(copy.json)).toBe(200);
    expect(copy.json.files['chains/quick-copy.yaml']).toBe(source);
    await discard(j, 'chains', 'quick-copy');

    await applyAndPublish('chains', 'quick-task', [{ op: 'rename', path: '', id: 'quick' }]);
    expect(j.disk(QUICK)).toBeNull();
    expect(j.disk('chains/quick.yaml')).toBe(source);
    await applyAndPublish('chains', 'quick', [{ op: 'rename', path: '', id: 'quick-task' }]);
    expect(j.disk(QUICK)).toBe(source);
  });

  it('a library op changes only its lines of library.yaml', async () => {
    const before = j.disk('library.yaml')!;
    await applyAndPublish('library', 'library', [
      { op: 'set_field', path: 'tasks.implementer', field: 'profile', value: 'fast' },
    ]);
    expect(changedLines(before, j.disk('library.yaml')!)).toEqual([
      [
        '    profile: strong # implementation is the hardest task in the chain',
        '    profile: fast # implementation is the hardest task in the chain',
      ],
    ]);
  });
});
