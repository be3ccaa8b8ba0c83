import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clearPermissionHook, codexHookArgs, installPermissionHook } from './permission-hook.js';

const cursor = { install: 'cursor_hooks_file' as const };

function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'jig-hook-unit-'));
  execFileSync('git', ['init', '-q', dir]);
  return dir;
}

describe('installing the permission hook', () => {
  it('codex: the hook and the trust hash Codex itself computes for it', () => {
    // The hash Codex 0.169 reported (app-server hooks/list) for this very declaration.
    expect(codexHookArgs("'/bin/sh' '/tmp/jig/hx/hook.sh'")).toEqual([
      '-c',
      `hooks.PreToolUse=[{hooks=[{type="command",command="'/bin/sh' '/tmp/jig/hx/hook.sh'",timeout=660}]}]`,
      '-c',
      'hooks.state={"/<session-flags>/config.toml:pre_tool_use:0:0"={trusted_hash="sha256:8dd96b33095e2767589a2dfd6c2268159be576d6db2a5c7248948f870055f32d"}}',
    ]);
  });

  it('cursor: writes its hooks file once excluded from git, replaces its own, clears it after', async () => {
    const dir = repo();
    expect(await installPermissionHook(cursor, dir, true)).toEqual({ ok: true, args: [] });
    expect(await installPermissionHook(cursor, dir, false)).toEqual({ ok: true, args: [] });
    const file = JSON.parse(readFileSync(join(dir, '.cursor', 'hooks.json'), 'utf8'));
    expect(file.hooks.preToolUse[0].command).toMatch(/'permission-hook' 'cursor'$/);
    const exclude = readFileSync(join(dir, '.git', 'info', 'exclude'), 'utf8');
    expect(exclude.split('\n').filter((l) => l === '/.cursor/hooks.json')).toHaveLength(1);
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' })).toBe('');
    clearPermissionHook(cursor, dir);
    expect(existsSync(join(dir, '.cursor', 'hooks.json'))).toBe(false);
  });

  it("cursor: another tool's hooks file is neither replaced nor cleared", async () => {
    const dir = repo();
    mkdirSync(join(dir, '.cursor'));
    writeFileSync(join(dir, '.cursor', 'hooks.json'), '{"version":1,"hooks":{"stop":[{"command":"x"}]}}');
    expect(await installPermissionHook(cursor, dir, true)).toEqual({
      ok: false,
      reason:
        ".cursor/hooks.json exists in the worktree and is not Jig's; Jig will not replace another tool's hooks",
    });
    clearPermissionHook(cursor, dir);
    expect(readFileSync(join(dir, '.cursor', 'hooks.json'), 'utf8')).toContain('"stop"');
  });
});
