import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/*
 * Where the pinned real agent CLIs live once `node test/e2e-agents/install-clis.mjs` has run
 * (.cache/agent-clis/<pkg>@<version>/). A test asks for a CLI and gets its bin path, or the reason
 * it is not there, which the test shows as a skip — never as a pass.
 */

export type CliId = 'claude' | 'codex' | 'gemini';

export const PINNED: Record<CliId, { pkg: string; version: string; bin: string }> = {
  claude: { pkg: '@anthropic-ai/claude-code', version: '2.1.197', bin: 'claude' },
  codex: { pkg: '@openai/codex', version: '0.169.0', bin: 'codex' },
  gemini: { pkg: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
};

export const repoRoot = resolve(import.meta.dirname, '..', '..');
export const cacheDir = join(repoRoot, '.cache', 'agent-clis');

export type CliLookup = { bin: string; skip?: undefined } | { bin?: undefined; skip: string };

export function cli(id: CliId): CliLookup {
  const p = PINNED[id];
  const spec = `${p.pkg}@${p.version}`;
  const bin = join(cacheDir, spec, 'node_modules', '.bin', p.bin);
  if (existsSync(join(cacheDir, spec, '.installed')) && existsSync(bin)) return { bin };
  let why = 'not installed (run `node test/e2e-agents/install-clis.mjs`)';
  try {
    const status = JSON.parse(readFileSync(join(cacheDir, 'status.json'), 'utf8')) as Record<
      string,
      { state?: string; reason?: string | null }
    >;
    const s = status[id];
    if (s?.state === 'failed') why = `install failed: ${s.reason ?? 'unknown reason'}`;
  } catch {
    /* no status yet */
  }
  const skip = `${spec} ${why}`;
  // Shown by every reporter (a skipped describe's title is not, by the default one).
  console.warn(`[e2e-agents] skipping the real ${id} scenarios: ${skip}`);
  return { skip };
}
