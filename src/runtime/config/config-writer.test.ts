import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigWriter, type ConfigFiles } from './config-writer.js';

let base: string;
let configDir: string;

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'jig-config-writer-')));
  configDir = join(base, 'config');
  mkdirSync(configDir);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** A pause between an operation's read and its write, as a store read or a hash makes one. */
const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Reads the names in list.json, waits, and writes them back with `name` added. */
const addName = (name: string) => async (files: ConfigFiles) => {
  const names = JSON.parse(files.read('list.json') ?? '[]') as string[];
  await pause();
  files.write('list.json', JSON.stringify([...names, name]));
};

const namesOnDisk = () => JSON.parse(readFileSync(join(configDir, 'list.json'), 'utf8')) as string[];

describe('ConfigWriter', () => {
  it('runs two read-modify-writes of one file one after the other, so both land', async () => {
    const writer = new ConfigWriter(configDir);
    await Promise.all([writer.run(addName('a')), writer.run(addName('b'))]);
    expect(namesOnDisk()).toEqual(['a', 'b']);
  });

  it('loses one of the same two when each has its own writer: why a home has only one', async () => {
    const one = new ConfigWriter(configDir);
    const two = new ConfigWriter(configDir);
    await Promise.all([one.run(addName('a')), two.run(addName('b'))]);
    expect(namesOnDisk()).toHaveLength(1);
  });

  it('answers what an operation answers, and a refusal does not stop the ones queued after it', async () => {
    const writer = new ConfigWriter(configDir);
    const refused = writer.run(() => {
      throw new Error('refused');
    });
    const next = writer.run((files) => {
      files.write('theme.yaml', 'board: {}\n');
      return 'written';
    });
    await expect(refused).rejects.toThrow('refused');
    await expect(next).resolves.toBe('written');
    expect(readFileSync(join(configDir, 'theme.yaml'), 'utf8')).toBe('board: {}\n');
  });

  it('writes into sub-folders it makes, with the mode asked, and removes files', async () => {
    const writer = new ConfigWriter(configDir);
    await writer.run((files) => {
      files.write('chains/new.yaml', 'nodes: []\n');
      files.write('notify.yaml', 'enabled: false\n', 0o600);
    });
    expect(readFileSync(join(configDir, 'chains', 'new.yaml'), 'utf8')).toBe('nodes: []\n');
    await writer.run((files) => {
      expect(files.read('chains/new.yaml')).toBe('nodes: []\n');
      files.remove('chains/new.yaml');
      files.remove('chains/never.yaml');
    });
    expect(existsSync(join(configDir, 'chains', 'new.yaml'))).toBe(false);
    expect(readFileSync(join(configDir, 'notify.yaml'), 'utf8')).toBe('enabled: false\n');
    expect(statSync(join(configDir, 'notify.yaml')).mode & 0o777).toBe(0o600);
  });

  it('refuses a path outside the config dir, writing nothing', async () => {
    writeFileSync(join(base, 'outside.yaml'), 'kept\n');
    const writer = new ConfigWriter(configDir);
    for (const file of [
      '../outside.yaml',
      'chains/../../outside.yaml',
      join(base, 'outside.yaml'),
      '',
      '.',
    ]) {
      await expect(writer.run((files) => files.write(file, 'overwritten\n'))).rejects.toThrow(/config file/);
      await expect(writer.run((files) => files.remove(file))).rejects.toThrow(/config file/);
      await expect(writer.run((files) => files.read(file))).rejects.toThrow(/config file/);
    }
    expect(readFileSync(join(base, 'outside.yaml'), 'utf8')).toBe('kept\n');
  });

  it('refuses a write made after its operation ended: it would escape the queue', async () => {
    const writer = new ConfigWriter(configDir);
    const kept: ConfigFiles[] = [];
    await writer.run((files) => {
      kept.push(files);
    });
    expect(() => kept[0]?.write('late.yaml', 'x\n')).toThrow(/after its operation ended/);
    expect(existsSync(join(configDir, 'late.yaml'))).toBe(false);
  });
});
