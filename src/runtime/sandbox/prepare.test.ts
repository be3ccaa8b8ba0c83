import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nodePrefix } from './prepare.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function install(withLib: boolean): string {
  const prefix = mkdtempSync(join(tmpdir(), 'jig-node-'));
  dirs.push(prefix);
  mkdirSync(join(prefix, 'bin'));
  writeFileSync(join(prefix, 'bin', 'node'), '');
  if (withLib) mkdirSync(join(prefix, 'lib', 'node_modules', 'npm'), { recursive: true });
  return prefix;
}

describe('the node a jail gets', () => {
  it("is the whole prefix of a version manager's install, so npm in its lib/ works", () => {
    const prefix = install(true);
    expect(nodePrefix(join(prefix, 'bin', 'node'))).toBe(prefix);
  });

  it('is only its folder when no lib/node_modules sits beside it, and nothing under the system folders', () => {
    const prefix = install(false);
    expect(nodePrefix(join(prefix, 'bin', 'node'))).toBe(join(prefix, 'bin'));
    expect(nodePrefix('/usr/bin/env')).toBeNull();
  });
});
