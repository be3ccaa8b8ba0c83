import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import type { SessionReadout } from '../../src/contract/harness/provider.js';
import { buildArgv, type LaunchInputs } from '../../src/core/harness/build-argv.js';
import { loadProviders } from '../../src/core/harness/load-providers.js';
import { createReader } from '../../src/core/harness/readers/reader.js';

/*
 * Runs a fake agent CLI (test/fixtures/fake-agents) through the argv builder, its stream read by
 * the provider's reader as it arrives: what the engine does with a real CLI, without a server.
 */
export const root = fileURLToPath(new URL('../..', import.meta.url));
export const fakes = join(root, 'test/fixtures/fake-agents');
export const { providers } = loadProviders({
  packaged: readdirSync(join(root, 'defaults/harnesses')).map((f) => ({
    file: `defaults/harnesses/${f}`,
    text: readFileSync(join(root, 'defaults/harnesses', f), 'utf8'),
  })),
});

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});
export const tempDir = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
};

export function repo(): string {
  const dir = tempDir('jig-fake-agent-');
  const git = (...a: string[]) => execFileSync('git', a, { cwd: dir, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git(
    '-c',
    'user.name=t',
    '-c',
    'user.email=t@example.invalid',
    'commit',
    '-q',
    '--allow-empty',
    '-m',
    'init',
  );
  return dir;
}

export type Id = 'claude' | 'codex' | 'gemini' | 'cursor' | 'opencode' | 'amp' | 'antigravity' | 'auggie';

export interface Run {
  code: number | null;
  readout: SessionReadout;
  live: SessionReadout[];
  stderr: string;
  stdout: string;
  cwd: string;
  resultPath: string;
}

export async function run(
  id: Id,
  inputs: Omit<LaunchInputs, 'executable'>,
  env: Record<string, string>,
  opts: { killOn?: (r: SessionReadout) => boolean; cwd?: string } = {},
): Promise<Run> {
  const def = providers[id]!;
  const built = buildArgv(def, { ...inputs, executable: join(fakes, id) });
  if (!built.ok) throw new Error(built.reason);
  const cwd = opts.cwd ?? repo();
  const resultPath = join(cwd, '.jig-result.json');
  rmSync(resultPath, { force: true });
  const child = spawn(built.argv[0]!, built.argv.slice(1), {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env['PATH'] ?? '', JIG_RESULT_PATH: resultPath, ...built.env, ...env },
  });
  const reader = createReader(def, { now: () => Date.parse('2026-11-22T12:00:00Z') });
  const live: SessionReadout[] = [];
  let stderr = '';
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
    reader.chunk(d);
    const snap = reader.snapshot();
    live.push(snap);
    if (opts.killOn?.(snap)) child.kill('SIGTERM');
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const code = await new Promise<number | null>((res) => child.on('close', (c) => res(c)));
  reader.end();
  return { code, readout: reader.snapshot(), live, stderr, stdout, cwd, resultPath };
}

export const result = (r: Run): unknown =>
  existsSync(r.resultPath) ? JSON.parse(readFileSync(r.resultPath, 'utf8')) : null;
export const commits = (cwd: string): number =>
  Number(execFileSync('git', ['rev-list', '--count', 'HEAD'], { cwd, encoding: 'utf8' }).trim());
