import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/server.js';

/*
 * `npx jig` in a clone installs the clone into npx's cache, which runs `prepare`: in a built clone
 * that must not rebuild (it took a minute before the command ran), while `npm ci` still builds.
 */
describe('prepare', () => {
  it('skips the build under `npm exec` (npx) when the clone is built', () => {
    const index = join(repoRoot, 'dist', 'web', 'index.html');
    const before = statSync(index).mtimeMs;
    const r = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'prepare.mjs')], {
      env: { ...process.env, npm_command: 'exec' },
      encoding: 'utf8',
    });
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
      status: 0,
      stdout: '',
      stderr: '',
    });
    expect(statSync(index).mtimeMs).toBe(before);
  });
});
