import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isJigError } from '../../contract/errors.js';
import { openStore, type Store } from '../../store/database.js';
import { listDrafts, stepCount } from '../../store/drafts.js';
import { ManualClock } from '../clock.js';
import { sha256Text } from '../config/config-dir.js';
import { editorChoices } from '../../contract/drafts/choices.js';
import { ConfigDrafts, configArea } from './config-drafts.js';
import { DraftOps } from './draft-ops.js';

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function bench() {
  const home = mkdtempSync(join(tmpdir(), 'jig-chain-drafts-'));
  dirs.push(home);
  const configDir = join(home, 'config');
  cpSync(join(import.meta.dirname, '../../../defaults/config'), configDir, { recursive: true });
  const store = await openStore(join(home, 'jig.db'));
  stores.push(store);
  const clock = new ManualClock(Date.parse('2026-11-24T09:00:00Z'));
  return { drafts: new ConfigDrafts({ store, configDir, clock }), store, clock, configDir };
}

const FILE = 'chains/quick-task.yaml';
const code = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return isJigError(e) ? [e.status, e.code, e.message] : e;
  }
  return null;
};

describe('chain drafts', () => {
  it('refuses an unknown area with 404 and a key the area does not take with 400', () => {
    expect(code(() => configArea('nope', 'x'))).toEqual([404, 'not_found', 'draft area nope not found']);
    expect(code(() => configArea('chains', 'Bad Key'))).toEqual([
      400,
      'bad_request',
      'Bad Key is not a key of the chains area',
    ]);
    expect(code(() => configArea('library', 'fast'))).toEqual([
      400,
      'bad_request',
      'fast is not a key of the library area',
    ]);
    expect(configArea('chains', 'quick-task')).toBe('chains');
  });

  it('answers the published chain with no draft, and 404 for a chain with neither file nor draft', async () => {
    const { drafts, configDir } = await bench();
    const text = readFileSync(join(configDir, FILE), 'utf8');
    const v = await drafts.get('chains', 'quick-task');
    expect(v).toMatchObject({ area: 'chains', key: 'quick-task', draft: false, updated_at: null });
    expect(v.files).toEqual({ [FILE]: text });
    expect(v.published).toEqual({ [FILE]: text });
    expect(v.base).toEqual({ [FILE]: sha256Text(text) });
    expect(v.result.changes).toEqual([]);
    expect(v.result.problems).toEqual([]);
    expect(v.result.choices).toEqual(editorChoices());
    await expect(drafts.get('chains', 'nothing-here')).rejects.toThrow(
      'chain nothing-here or a draft of it not found',
    );
  });

  it('stores a PUT as typed, with its changes; undo steps coalesce within 4 s; undo goes back to no draft', async () => {
    const { drafts, store, clock, configDir } = await bench();
    const text = readFileSync(join(configDir, FILE), 'utf8');
    const v1 = text.replace('Smoke-test chain.', 'Smoke chain.');
    const put1 = await drafts.putFile('chains', 'quick-task', FILE, v1);
    expect(put1.draft).toBe(true);
    expect(put1.files[FILE]).toBe(v1);
    expect(put1.base).toEqual({ [FILE]: sha256Text(text) });
    expect(put1.result.changes).toEqual([
      { path: '', kind: 'change', summary: 'changed description', fields: ['description'] },
    ]);
    await clock.advance(3_000);
    const v2 = v1.replace('no gate.', 'no gate at all.');
    await drafts.putFile('chains', 'quick-task', FILE, v2);
    await clock.advance(5_000);
    const v3 = `${v2}# a comment\n`;
    await drafts.putFile('chains', 'quick-task', FILE, v3);
    expect(await stepCount(store.db, 'chains', 'quick-task')).toBe(2);
    expect((await listDrafts(store.db)).map((d) => [d.key, d.changes, d.problems, d.updated_at])).toEqual([
      ['quick-task', 1, 0, '2026-11-24T09:00:08.000Z'],
    ]);
    const back = await drafts.undo('chains', 'quick-task');
    expect(back?.files[FILE]).toBe(v2);
    const gone = await drafts.undo('chains', 'quick-task');
    expect(gone?.draft).toBe(false);
    expect(await drafts.undo('chains', 'quick-task')).toBeNull();
  });

  it('drops the draft when a PUT parses back to the published file, comments aside', async () => {
    const { drafts, store, configDir } = await bench();
    const text = readFileSync(join(configDir, FILE), 'utf8');
    await drafts.putFile('chains', 'quick-task', FILE, text.replace('Smoke-test chain.', 'Other.'));
    const same = await drafts.putFile('chains', 'quick-task', FILE, `# only a comment more\n${text}`);
    expect(same.draft).toBe(false);
    expect(await listDrafts(store.db)).toEqual([]);
    expect(await stepCount(store.db, 'chains', 'quick-task')).toBe(0);
  });

  it('keeps a text that does not parse, with its yaml error and the model it last parsed to', async () => {
    const { drafts, configDir } = await bench();
    const text = readFileSync(join(configDir, FILE), 'utf8');
    const good = text.replace('Smoke-test chain.', 'Good.');
    await drafts.putFile('chains', 'quick-task', FILE, good);
    const bad = await drafts.putFile('chains', 'quick-task', FILE, `${good}nodes: [\n`);
    expect(bad.files[FILE]).toBe(`${good}nodes: [\n`);
    expect(bad.result.yaml_error).toMatchObject({ file: FILE });
    expect(bad.result.model[FILE]).toMatchObject({ description: expect.stringContaining('Good.') });
  });

  it('refuses a file that is not the key’s, and rebases onto a file changed on disk', async () => {
    const { drafts, configDir } = await bench();
    await expect(drafts.putFile('chains', 'quick-task', 'chains/default.yaml', 'x: 1\n')).rejects.toThrow(
      'file: chains/default.yaml is not a file of the chains draft quick-task',
    );
    const text = readFileSync(join(configDir, FILE), 'utf8');
    await drafts.putFile('chains', 'quick-task', FILE, text.replace('Smoke-test chain.', 'Mine.'));
    const edited = text.replace('Smoke-test chain.', 'Theirs.');
    writeFileSync(join(configDir, FILE), edited);
    const rebased = await drafts.rebase('chains', 'quick-task');
    expect(rebased?.base).toEqual({ [FILE]: sha256Text(edited) });
    expect(rebased?.files[FILE]).toContain('Mine.');
    expect(await drafts.discard('chains', 'quick-task')).toBe(true);
    expect(await drafts.discard('chains', 'quick-task')).toBe(false);
    expect(await drafts.rebase('chains', 'quick-task')).toBeNull();
  });
});

describe('what a publish reaches', () => {
  it('a chain: items filed on it not yet ended, and repos whose default it is', async () => {
    const { drafts, store, configDir } = await bench();
    writeFileSync(
      join(configDir, 'repos.yaml'),
      'repos:\n  - path: /src/a\n    default_chain: quick-task\n  - path: /src/b\n  - path: /src/c\n    default_chain: quick-task\n',
    );
    const insert = store.raw!.prepare(
      `INSERT INTO work_items (id, title, description, status, chain, repo, branch, source, created_at, updated_at)
       VALUES (?, 't', '', ?, ?, '/src/a', ?, 'human', '2026-11-24T09:00:00Z', '2026-11-24T09:00:00Z')`,
    );
    insert.run('w1', 'running', 'quick-task', 'jig/w1');
    insert.run('w2', 'paused', 'quick-task', 'jig/w2');
    insert.run('w3', 'completed', 'quick-task', 'jig/w3');
    insert.run('w4', 'running', 'default', 'jig/w4');
    expect((await drafts.get('chains', 'quick-task')).result.impact).toEqual({
      running: 2,
      repos: ['/src/a', '/src/c'],
    });
    expect((await drafts.get('chains', 'default')).result.impact).toEqual({ running: 1, repos: ['/src/b'] });
  });

  it('the library: each change with the chains it reaches, and those chains as the impact', async () => {
    const { drafts, configDir } = await bench();
    const lib = readFileSync(join(configDir, 'library.yaml'), 'utf8');
    const edited = lib.replace(/^( {2}verify_changed_scopes:\n)/m, '$1    description: Edited in a draft.\n');
    expect(edited).not.toBe(lib);
    const v = await drafts.putFile('library', 'library', 'library.yaml', edited);
    // A library task the three shipped chains use (through their library nodes too).
    expect(v.result.changes).toEqual([
      {
        path: 'tasks.verify_changed_scopes',
        kind: 'change',
        summary: 'changed description',
        fields: ['description'],
        reaches: ['default', 'merge-request', 'quick-task'],
      },
    ]);
    expect(v.result.impact).toEqual({ chains: ['default', 'merge-request', 'quick-task'], repos: [] });
    expect(v.result.problems).toEqual([]);
  });
});

describe('comments', () => {
  it('an ops request writes over the file’s text: comments kept, no warning', async () => {
    const { drafts, configDir } = await bench();
    const text = readFileSync(join(configDir, FILE), 'utf8');
    const op = { op: 'set_field', path: '', field: 'description', value: 'Rewritten.' };
    const v = await new DraftOps(drafts).apply('chains', 'quick-task', [op], false);
    expect(v.result.warnings).toEqual([]);
    const after = v.files[FILE] ?? '';
    expect(after.split('\n').filter((l, i) => l !== text.split('\n')[i])).toEqual([
      'description: Rewritten.',
    ]);
  });
});
