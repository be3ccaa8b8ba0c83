import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { MockModelServer } from './mock-model-server.js';

/*
 * Where the pinned real agent CLIs live once `node test/e2e-agents/install-clis.mjs` has run
 * (.cache/agent-clis/<pkg>@<version>/). A test asks for a CLI and gets its bin path, or the reason
 * it is not there, which the test shows as a skip — never as a pass.
 */

/** The CLIs the whole scenario set runs on. */
export type ScenarioCliId = 'claude' | 'codex' | 'gemini';
/** Every pinned CLI: the rest are checked through `jig admin harnesses test` (harness-test.test.ts). */
export type CliId = ScenarioCliId | 'qwen' | 'copilot' | 'opencode' | 'kilo' | 'droid';

export const PINNED: Record<CliId, { pkg: string; version: string; bin: string }> = {
  claude: { pkg: '@anthropic-ai/claude-code', version: '2.1.197', bin: 'claude' },
  codex: { pkg: '@openai/codex', version: '0.169.0', bin: 'codex' },
  gemini: { pkg: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
  qwen: { pkg: '@qwen-code/qwen-code', version: '0.24.4', bin: 'qwen' },
  copilot: { pkg: '@github/copilot', version: '1.0.102', bin: 'copilot' },
  opencode: { pkg: 'opencode-ai', version: '1.18.33', bin: 'opencode' },
  kilo: { pkg: '@kilocode/cli', version: '7.7.7', bin: 'kilo' },
  droid: { pkg: '@factory/cli', version: '0.225.1', bin: 'droid' },
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

/** What each CLI needs, beyond Jig's launch, to talk to the mock offline from a private home. */
export function cliEnv(id: ScenarioCliId, home: string, mock: MockModelServer): Record<string, string> {
  if (id === 'claude') {
    return {
      ANTHROPIC_BASE_URL: mock.url,
      ANTHROPIC_API_KEY: 'sk-ant-mock',
      CLAUDE_CONFIG_DIR: join(home, '.claude'),
      CLAUDE_CODE_MAX_RETRIES: '0',
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
    };
  }
  if (id === 'codex') {
    const codexHome = join(home, '.codex');
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(
      join(codexHome, 'config.toml'),
      [
        'model_provider = "mock"',
        '[model_providers.mock]',
        'name = "mock"',
        `base_url = "${mock.url}/v1"`,
        'wire_api = "responses"',
        'env_key = "MOCK_API_KEY"',
        'request_max_retries = 0',
        'stream_max_retries = 0',
        '',
      ].join('\n'),
    );
    return { CODEX_HOME: codexHome, MOCK_API_KEY: 'sk-mock' };
  }
  mkdirSync(join(home, '.gemini'), { recursive: true });
  writeFileSync(
    join(home, '.gemini', 'settings.json'),
    // maxAttempts 1: no retries (else a 429 backs off for minutes, honouring "retry in Ns").
    JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } }, general: { maxAttempts: 1 } }),
  );
  // Gemini writes error reports to the system temp dir: keep them in the private home.
  mkdirSync(join(home, 'tmp'), { recursive: true });
  return { GOOGLE_GEMINI_BASE_URL: mock.url, GEMINI_API_KEY: 'mock-gemini-key', TMPDIR: join(home, 'tmp') };
}
