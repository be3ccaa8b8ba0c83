#!/usr/bin/env node
// Installs the pinned real agent CLIs on demand into .cache/agent-clis/<pkg>@<version>/ (gitignored),
// for the end-to-end tests in this folder. Never a project dependency; never fails the whole run
// because one package cannot install: the reason goes to .cache/agent-clis/status.json.
// Usage: node test/e2e-agents/install-clis.mjs [--force]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const cacheDir = join(root, '.cache', 'agent-clis');

/** The pinned CLIs (versions that run on Node 20; see docs/harnesses.md). */
export const CLIS = [
  { id: 'claude', pkg: '@anthropic-ai/claude-code', version: '2.1.197', bin: 'claude' },
  { id: 'codex', pkg: '@openai/codex', version: '0.169.0', bin: 'codex' },
  { id: 'gemini', pkg: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
  { id: 'qwen', pkg: '@qwen-code/qwen-code', version: '0.24.4', bin: 'qwen' },
  { id: 'copilot', pkg: '@github/copilot', version: '1.0.102', bin: 'copilot' },
  { id: 'opencode', pkg: 'opencode-ai', version: '1.18.33', bin: 'opencode' },
  // 7.8.1 (latest) pins platform packages that are not on the registry.
  { id: 'kilo', pkg: '@kilocode/cli', version: '7.7.7', bin: 'kilo' },
  // 0.225.1 (the only version) pins its platform binary at 0.225.1, which is not on the registry.
  {
    id: 'droid',
    pkg: '@factory/cli',
    version: '0.225.1',
    bin: 'droid',
    with: ['@factory/cli-linux-x64@0.225.2'],
  },
];

export function binPath(cli) {
  return join(cacheDir, `${cli.pkg}@${cli.version}`, 'node_modules', '.bin', cli.bin);
}

function readStatus() {
  try {
    return JSON.parse(readFileSync(join(cacheDir, 'status.json'), 'utf8'));
  } catch {
    return {};
  }
}

/** npm's first error lines (they carry the code: ETARGET, ECONNREFUSED, EBADENGINE…). */
function firstErrors(text) {
  const errors = text
    .split('\n')
    .filter((l) => /^npm (error|ERR!)/.test(l))
    .map((l) => l.replace(/^npm (error|ERR!)\s*/, '').trim())
    .filter((l) => l !== '');
  return [...new Set(errors)].slice(0, 3).join(' | ') || text.trim().split('\n').slice(-3).join(' | ');
}

function installOne(cli, force) {
  const spec = `${cli.pkg}@${cli.version}`;
  const dir = join(cacheDir, spec);
  const bin = binPath(cli);
  const marker = join(dir, '.installed');
  if (!force && existsSync(marker) && existsSync(bin)) return { state: 'cached', bin, ms: 0 };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // A package.json of its own so npm installs here, not into the project.
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'jig-agent-cli-cache', private: true }) + '\n',
  );
  const started = Date.now();
  const r = spawnSync(
    'npm',
    ['install', '--prefix', dir, spec, ...(cli.with ?? []), '--no-audit', '--no-fund', '--no-save'],
    {
      cwd: dir,
      encoding: 'utf8',
      timeout: 10 * 60_000,
    },
  );
  const ms = Date.now() - started;
  if (r.status !== 0 || !existsSync(bin)) {
    const why =
      r.error?.message ??
      (r.status !== 0
        ? `npm exited ${r.status}: ${firstErrors(r.stderr || r.stdout || '')}`
        : `installed, but ${bin} is missing`);
    return { state: 'failed', bin, ms, reason: why };
  }
  writeFileSync(marker, new Date().toISOString() + '\n');
  return { state: 'installed', bin, ms };
}

function main() {
  const force = process.argv.includes('--force');
  mkdirSync(cacheDir, { recursive: true });
  const status = readStatus();
  for (const cli of CLIS) {
    const spec = `${cli.pkg}@${cli.version}`;
    let res;
    try {
      res = installOne(cli, force);
    } catch (e) {
      res = { state: 'failed', bin: binPath(cli), ms: 0, reason: e instanceof Error ? e.message : String(e) };
    }
    const prev = status[cli.id];
    status[cli.id] = {
      pkg: cli.pkg,
      version: cli.version,
      bin: res.bin,
      state: res.state === 'failed' ? 'failed' : 'installed',
      reason: res.reason ?? null,
      install_ms: res.state === 'cached' ? (prev?.install_ms ?? null) : res.ms,
      checked_at: new Date().toISOString(),
    };
    const extra =
      res.state === 'failed'
        ? ` (${res.reason})`
        : res.state === 'installed'
          ? ` (${(res.ms / 1000).toFixed(1)} s)`
          : '';
    console.log(`${res.state} ${spec} ${res.bin}${extra}`);
  }
  writeFileSync(join(cacheDir, 'status.json'), JSON.stringify(status, null, 2) + '\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
