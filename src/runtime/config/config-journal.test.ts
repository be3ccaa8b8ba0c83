import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigJournal, journalFiles, recoverConfig } from './config-journal.js';
import { ConfigWriter } from './config-writer.js';

let dir: string;
const at = (f: string) => join(dir, f);
/** As the writer replaces a file: a new file renamed over it (the journal keeps the old one by link). */
const replace = (f: string, text: string) => {
  writeFileSync(at(`${f}.tmp`), text);
  renameSync(at(`${f}.tmp`), at(f));
};
const read = (f: string) => (existsSync(at(f)) ? readFileSync(at(f), 'utf8') : null);

/** The four files the operations below touch, in one order. */
const four = () => ['library.yaml', 'chains/a.yaml', 'chains/b.yaml', 'chains/c.yaml'].map(read);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'jig-journal-'));
  mkdirSync(at('chains'));
  writeFileSync(at('library.yaml'), 'library: old\n');
  writeFileSync(at('chains/a.yaml'), 'a: old\n');
  writeFileSync(at('chains/b.yaml'), 'b: old\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** What an operation does to the files, through the journal, without its end (a crash). */
function cutShort(): void {
  const j = new ConfigJournal(dir);
  for (const [f, text] of [
    ['library.yaml', 'library: new\n'],
    ['chains/a.yaml', 'a: new\n'],
    ['chains/c.yaml', 'c: new\n'],
  ] as const) {
    j.before(f, at(f));
    replace(f, text);
  }
  j.before('chains/b.yaml', at('chains/b.yaml'));
  rmSync(at('chains/b.yaml'));
}

describe('the config journal', () => {
  it('an operation cut short is put back whole at the next start, files it made and removed included', () => {
    cutShort();
    expect(four()).toEqual(['library: new\n', 'a: new\n', null, 'c: new\n']);
    expect(recoverConfig(dir)).toEqual({
      restored: ['library.yaml', 'chains/a.yaml', 'chains/c.yaml', 'chains/b.yaml'],
    });
    expect(four()).toEqual(['library: old\n', 'a: old\n', 'b: old\n', null]);
    expect(existsSync(at('.journal'))).toBe(false);
    // Nothing left to do a second time.
    expect(recoverConfig(dir)).toBeNull();
  });

  it('a recovery cut short itself finishes on the next try; a torn last line names nothing replaced', () => {
    cutShort();
    appendFileSync(at('.journal/journal'), '{"file":"chains/x.ya');
    // As if a first recovery had put back chains/b.yaml (the newest entry) and stopped.
    const lines = readFileSync(at('.journal/journal'), 'utf8').split('\n');
    const b = JSON.parse(lines[3]!) as { old: string };
    writeFileSync(at('chains/b.yaml'), readFileSync(at(`.journal/${b.old}`)));
    rmSync(at(`.journal/${b.old}`));
    expect(recoverConfig(dir)?.restored).toEqual(['library.yaml', 'chains/a.yaml', 'chains/c.yaml']);
    expect(four()).toEqual(['library: old\n', 'a: old\n', 'b: old\n', null]);
  });

  it('old files left without a journal (the operation had ended) are cleared and nothing is put back', () => {
    const j = new ConfigJournal(dir);
    j.before('library.yaml', at('library.yaml'));
    replace('library.yaml', 'library: new\n');
    rmSync(at('.journal/journal'));
    expect(journalFiles(dir)).toEqual(['0.old']);
    expect(recoverConfig(dir)).toBeNull();
    expect(read('library.yaml')).toBe('library: new\n');
    expect(existsSync(at('.journal'))).toBe(false);
  });
});

describe('ConfigWriter with its journal', () => {
  it('a whole operation leaves its files new and no journal behind', async () => {
    const w = new ConfigWriter(dir);
    await w.run((files) => {
      files.write('library.yaml', 'library: new\n');
      files.write('chains/a.yaml', 'a: new\n');
      files.remove('chains/b.yaml');
      // The journal holds the old versions while the operation runs.
      expect(journalFiles(dir)).toEqual(['0.old', '1.old', '2.old', 'journal']);
    });
    expect([read('library.yaml'), read('chains/a.yaml'), read('chains/b.yaml')]).toEqual([
      'library: new\n',
      'a: new\n',
      null,
    ]);
    expect(existsSync(at('.journal'))).toBe(false);
    expect(recoverConfig(dir)).toBeNull();
  });

  it('a refusal after some writes keeps them, as before, and ends the journal', async () => {
    const w = new ConfigWriter(dir);
    await expect(
      w.run((files) => {
        files.write('library.yaml', 'library: new\n');
        files.write('library.yaml', 'library: newer\n');
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(read('library.yaml')).toBe('library: newer\n');
    expect(existsSync(at('.journal'))).toBe(false);
    // The next operation journals afresh.
    await w.run((files) => files.write('chains/a.yaml', 'a: new\n'));
    expect(read('chains/a.yaml')).toBe('a: new\n');
  });
});
