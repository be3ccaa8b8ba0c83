import { createHash } from 'node:crypto';
import {
  appendFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { PermissionHookCapability } from '../../contract/harness/provider.js';
import { tomlString } from '../../core/harness/build-argv.js';
import { git } from '../git/git.js';
import { packageRoot } from '../package-root.js';

/** How long the CLI waits for the hook: past a permission ask's own 10 minutes, so the ask ends first. */
export const HOOK_TIMEOUT_S = 660;

const shellWord = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;

/**
 * The command the CLI runs before each tool call: this Jig's own CLI, by absolute paths (the
 * worker's PATH may hold another `jig`). It reads the item and task from the launch environment.
 */
export function hookCommand(cli: 'codex' | 'cursor', failClosed: boolean): string {
  const words = [process.execPath, join(packageRoot, 'bin', 'jig.js'), 'admin', 'permission-hook', cli];
  if (failClosed) words.push('--fail-closed');
  return words.map(shellWord).join(' ');
}

/**
 * Codex runs a hook from `-c` only once it is trusted: `hooks.state` keyed by where the hook was
 * declared (session flags, event, group, handler) holding the sha256 of its normalized declaration
 * (sorted keys, compact JSON), which is what Codex itself computes. Checked against Codex 0.169 by
 * the real-CLI test; never `--dangerously-bypass-hook-trust`, which would trust every hook.
 */
export function codexHookArgs(command: string): string[] {
  const identity = JSON.stringify({
    event_name: 'pre_tool_use',
    hooks: [{ async: false, command, timeout: HOOK_TIMEOUT_S, type: 'command' }],
  });
  const hash = `sha256:${createHash('sha256').update(identity).digest('hex')}`;
  const key = '/<session-flags>/config.toml:pre_tool_use:0:0';
  return [
    '-c',
    `hooks.PreToolUse=[{hooks=[{type="command",command=${tomlString(command)},timeout=${HOOK_TIMEOUT_S}}]}]`,
    '-c',
    `hooks.state={${tomlString(key)}={trusted_hash=${tomlString(hash)}}}`,
  ];
}

const CURSOR_FILE = '.cursor/hooks.json';
const MARK = 'permission-hook';

/**
 * Cursor reads hooks from the worktree's `.cursor/hooks.json`: Jig writes its own there and hides
 * it from git through `info/exclude`. A hooks file the repository brought is not overwritten (the
 * launch is refused: merging another tool's hooks could run them unreviewed).
 */
async function installCursorHook(
  worktree: string,
  command: string,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  const dir = join(worktree, '.cursor');
  const file = join(worktree, CURSOR_FILE);
  if (existsSync(dir) && lstatSync(dir).isSymbolicLink())
    return { ok: false, reason: `${CURSOR_FILE}: .cursor is a link; Jig will not write through it` };
  if (existsSync(file) && !readFileSync(file, 'utf8').includes(MARK))
    return {
      ok: false,
      reason: `${CURSOR_FILE} exists in the worktree and is not Jig's; Jig will not replace another tool's hooks`,
    };
  mkdirSync(dir, { recursive: true });
  const body = { version: 1, hooks: { preToolUse: [{ command, timeout: HOOK_TIMEOUT_S }] } };
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o644 });
  renameSync(tmp, file);
  const common = await git(worktree, ['rev-parse', '--git-common-dir']);
  if (common.code === 0) {
    const raw = common.stdout.trim();
    const exclude = join(isAbsolute(raw) ? raw : join(worktree, raw), 'info', 'exclude');
    const text = existsSync(exclude) ? readFileSync(exclude, 'utf8') : '';
    if (!text.split('\n').includes(`/${CURSOR_FILE}`)) {
      mkdirSync(join(exclude, '..'), { recursive: true });
      appendFileSync(exclude, `${text === '' || text.endsWith('\n') ? '' : '\n'}/${CURSOR_FILE}\n`);
    }
  }
  return { ok: true };
}

/**
 * A launch that needs no hook leaves none of Jig's behind from an earlier one: a stale Cursor hook
 * file would still gate (and, failing closed, deny) calls this launch's policy does not limit.
 */
export function clearPermissionHook(cap: PermissionHookCapability, worktree: string): void {
  if (cap.install !== 'cursor_hooks_file') return;
  const file = join(worktree, CURSOR_FILE);
  if (existsSync(file) && !lstatSync(file).isSymbolicLink() && readFileSync(file, 'utf8').includes(MARK))
    rmSync(file, { force: true });
}

/** Installs the provider's hook for one launch: the argv words it needs (none for a file). */
export async function installPermissionHook(
  cap: PermissionHookCapability,
  worktree: string,
  failClosed: boolean,
): Promise<{ ok: true; args: string[] } | { ok: false; reason: string }> {
  if (cap.install === 'codex_config')
    return { ok: true, args: codexHookArgs(hookCommand('codex', failClosed)) };
  const done = await installCursorHook(worktree, hookCommand('cursor', failClosed));
  return done.ok ? { ok: true, args: [] } : done;
}
