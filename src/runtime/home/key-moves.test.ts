import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { setUnlessSet } from './key-movers.js';
import { applyKeyMoves, keyMove } from './key-moves.js';
import { LEGACY_KEEP_ORIGINAL, LEGACY_KEY_MOVES } from './legacy-key-moves.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'jig-key-moves-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const read = (f: string): unknown => parse(readFileSync(join(dir, f), 'utf8'));
const legacy = () => applyKeyMoves(dir, LEGACY_KEY_MOVES, { keepOriginal: LEGACY_KEEP_ORIGINAL });

describe('applyKeyMoves', () => {
  it('a new move is one row: the value lands once, and a second run finds nothing', () => {
    writeFileSync(join(dir, 'intake.yaml'), 'interval_s: 300\nold_cap: 4 # moved\n');
    writeFileSync(join(dir, 'policy.yaml'), 'default:\n  attempts: 2\n');
    const rows = [
      keyMove({
        key: 'intake-old-cap',
        from: { file: 'intake.yaml', path: ['old_cap'] },
        to: { file: 'policy.yaml', path: ['new_cap'] },
        how: setUnlessSet(),
        notice: ({ value }) => `moved old_cap: ${String(value)}`,
        tellUnparsable: true,
      }),
    ];
    expect(applyKeyMoves(dir, rows)).toEqual([
      { level: 'info', key: 'intake-old-cap', message: 'moved old_cap: 4' },
    ]);
    expect(read('policy.yaml')).toEqual({ default: { attempts: 2 }, new_cap: 4 });
    expect(read('intake.yaml')).toEqual({ interval_s: 300 });
    expect(applyKeyMoves(dir, rows)).toEqual([]);
  });

  it('leaves a file that does not parse, and says which move it held up', () => {
    const bad = 'a: [1\n';
    writeFileSync(join(dir, 'policy.yaml'), 'triggers:\n  - {cron: "0 3 * * *", repo: /a, chain: d}\n');
    writeFileSync(join(dir, 'intake.yaml'), bad);
    writeFileSync(join(dir, 'theme.yaml'), 'palette: [amber\n');
    expect(legacy().map((n) => [n.key, n.message])).toEqual([
      ['unparsable-intake.yaml', 'intake.yaml does not parse; policy.yaml triggers was not moved'],
      ['unparsable-theme.yaml', 'theme.yaml does not parse; palette was not moved'],
    ]);
    expect(readFileSync(join(dir, 'intake.yaml'), 'utf8')).toBe(bad);
    expect(read('policy.yaml')).toEqual({ triggers: [{ cron: '0 3 * * *', repo: '/a', chain: 'd' }] });
    // A file that names no moved key is not read as YAML at all: nothing could move from it.
    writeFileSync(join(dir, 'theme.yaml'), bad);
    writeFileSync(join(dir, 'policy.yaml'), 'max_concurrent: 2\n');
    expect(legacy()).toEqual([]);
  });

  it('keeps the 1.x theme once, before its first rewrite, though two rows rewrite it', () => {
    const theme = 'palette: amber\nboard:\n  group_by: template\n';
    writeFileSync(join(dir, 'theme.yaml'), theme);
    expect(legacy().map((n) => n.key)).toEqual(['theme-palette', 'theme-group-by']);
    expect(readFileSync(join(dir, 'theme.yaml.pre-2.0'), 'utf8')).toBe(theme);
    expect(read('theme.yaml')).toEqual({
      board: { group_by: 'chain' },
      surface: 'warm',
      accent: 'amber',
      colour_amount: 40,
    });
    expect(legacy()).toEqual([]);
    expect(existsSync(join(dir, 'policy.yaml'))).toBe(false);
  });
});
