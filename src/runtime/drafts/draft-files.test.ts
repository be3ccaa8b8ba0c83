import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Text } from '../config/config-dir.js';
import { baseOf, overlay, readPublished, sameAsPublished, staleFiles, withFile } from './draft-files.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function configDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'jig-draft-files-'));
  dirs.push(dir);
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    writeFileSync(join(dir, f), text);
  }
  return dir;
}

const CHAIN = 'chains/fast.yaml';
const TEXT = '# the fast chain\nnodes:\n  - id: build\n';

describe('draft files', () => {
  it('reads the published files, null for one not there yet', () => {
    const dir = configDir({ [CHAIN]: TEXT });
    expect(readPublished(dir, [CHAIN, 'library.yaml'])).toEqual({ [CHAIN]: TEXT, 'library.yaml': null });
  });

  it('lays the draft over the published files, and records each file’s base as it joins', () => {
    const published = { [CHAIN]: TEXT, 'library.yaml': null };
    expect(baseOf(published, null)).toEqual({ [CHAIN]: sha256Text(TEXT), 'library.yaml': null });
    const d1 = withFile(null, CHAIN, 'nodes: []\n', TEXT);
    expect(d1).toEqual({ files: { [CHAIN]: 'nodes: []\n' }, base: { [CHAIN]: sha256Text(TEXT) } });
    // A second write keeps the base the file joined with.
    const d2 = withFile(d1, CHAIN, 'nodes: [x]\n', 'changed on disk meanwhile');
    expect(d2.base).toEqual({ [CHAIN]: sha256Text(TEXT) });
    const d3 = withFile(d2, 'library.yaml', 'tasks: {}\n', null);
    expect(d3.base).toEqual({ [CHAIN]: sha256Text(TEXT), 'library.yaml': null });
    expect(overlay(published, d3)).toEqual({ [CHAIN]: 'nodes: [x]\n', 'library.yaml': 'tasks: {}\n' });
    expect(overlay(published, withFile(d3, CHAIN, null, TEXT))).toEqual({
      [CHAIN]: null,
      'library.yaml': 'tasks: {}\n',
    });
  });

  it('finds the files that changed on disk since they joined', () => {
    const d = {
      area: 'chains',
      key: 'fast',
      changes: 0,
      problems: 0,
      updated_at: '',
      ...withFile(withFile(null, CHAIN, 'a: 1\n', TEXT), 'library.yaml', 'b: 2\n', null),
    };
    expect(staleFiles(d, { [CHAIN]: TEXT, 'library.yaml': null })).toEqual([]);
    expect(staleFiles(d, { [CHAIN]: `${TEXT}# edited\n`, 'library.yaml': 'tasks: {}\n' })).toEqual([
      CHAIN,
      'library.yaml',
    ]);
  });

  it('is back at the published files when every file parses to the same thing, comments aside', () => {
    const published = { [CHAIN]: TEXT };
    expect(sameAsPublished(withFile(null, CHAIN, 'nodes: [{id: build}]\n', TEXT), published)).toBe(true);
    expect(sameAsPublished(withFile(null, CHAIN, 'nodes: [{id: test}]\n', TEXT), published)).toBe(false);
    expect(sameAsPublished(withFile(null, CHAIN, 'nodes: [\n', TEXT), published)).toBe(false);
    expect(sameAsPublished(withFile(null, CHAIN, null, TEXT), published)).toBe(false);
    expect(sameAsPublished(withFile(null, 'library.yaml', null, null), { 'library.yaml': null })).toBe(true);
  });
});
