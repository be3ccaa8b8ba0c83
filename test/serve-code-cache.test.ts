import { isAscii } from 'node:buffer';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupAll, http, repoRoot, startJig } from './helpers/server.js';

/*
 * `jig serve` runs from a CommonJS bundle compiled with V8's code cache (bin/code-cache.js, ADR
 * 0028). JIG_CODE_CACHE points the cache at a directory of this test's own, so the cache the rest
 * of the suite shares is left alone.
 */

const dirs: string[] = [];
const cacheDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'jig-code-cache-'));
  dirs.push(dir);
  return dir;
};

afterAll(async () => {
  await cleanupAll();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function startAndStop(env: Record<string, string>): Promise<void> {
  const jig = await startJig({ env });
  const health = await http(`${jig.url}/api/health`);
  expect([health.status, health.json.status]).toEqual([200, 'ok']);
  expect(await jig.stop()).toEqual({ code: 0, signal: null });
}

describe('the serve bundle and its code cache', () => {
  it('keeps a cache from the first start, takes it unchanged on the next, and replaces one V8 refuses', async () => {
    const dir = cacheDir();
    const env = { JIG_CODE_CACHE: dir };
    await startAndStop(env);
    const files = readdirSync(dir);
    const name = new RegExp(
      `^serve-[A-Z0-9]+\\.cjs\\.${process.version.replace(/\./g, '\\.')}-${process.arch}\\.cache$`,
    );
    expect(files).toEqual([expect.stringMatching(name)]);
    const file = join(dir, files[0]!);
    const made = statSync(file);
    // Every function the start compiled, not only the top level: megabytes.
    expect(made.size).toBeGreaterThan(1_000_000);

    await startAndStop(env);
    const taken = statSync(file);
    expect([taken.ino, taken.mtimeMs, taken.size]).toEqual([made.ino, made.mtimeMs, made.size]);

    // Not a cache V8 accepts (a damaged file, another build's): the server starts all the same,
    // and the file is made anew.
    writeFileSync(file, 'not a code cache');
    await startAndStop(env);
    expect(statSync(file).size).toBeGreaterThan(1_000_000);
    expect(readdirSync(dir)).toEqual(files);
  });

  it('keeps no cache in a directory other users may write to', async () => {
    // Such a directory may hold a cache someone else left there: it is code this process would run.
    const dir = cacheDir();
    chmodSync(dir, 0o777);
    await startAndStop({ JIG_CODE_CACHE: dir });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('is ASCII, so that a start reads it as one-byte text (issue 43)', () => {
    // A character outside a comment (a regular expression, a tagged template such as kysely's sql)
    // would make each start decode 7 MB of UTF-8 into a two-byte string: write it as an escape.
    const { file } = JSON.parse(readFileSync(join(repoRoot, 'dist', 'bundle', 'serve.json'), 'utf8'));
    const bytes = readFileSync(join(repoRoot, 'dist', 'bundle', file));
    const lines = bytes.toString('utf8').split('\n');
    expect(lines.flatMap((l, i) => (/[^\x00-\x7f]/.test(l) ? [`${i + 1}: ${l.slice(0, 120)}`] : []))).toEqual(
      [],
    );
    expect(isAscii(bytes)).toBe(true);
  });

  it('JIG_CODE_CACHE=off runs the ES module bundle and keeps no cache', async () => {
    const dir = cacheDir();
    // The directory is not the setting here: nothing may be written to it, nor anywhere else.
    const before = readdirSync(tmpdir()).filter((f) => f.startsWith('jig-code-cache-')).length;
    await startAndStop({ JIG_CODE_CACHE: 'off' });
    expect(readdirSync(dir)).toEqual([]);
    expect(readdirSync(tmpdir()).filter((f) => f.startsWith('jig-code-cache-')).length).toBe(before);
  });
});
