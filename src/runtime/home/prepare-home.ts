import { chmodSync, mkdirSync } from 'node:fs';
import type { HomePaths } from './paths.js';
import { moveLegacyConfigDir, moveLegacyKeys, type HomeNotice } from './legacy-home.js';
import { seedConfig, writeSchemas } from './seed.js';
import { seedPolicy } from './seed-sandbox.js';
import { removeStaleTemps } from './stale-temps.js';
import { ensureTokenFile } from './tokens.js';

export interface PreparedHome {
  notices: HomeNotice[];
  seeded: string[];
}

/**
 * Makes the home ready to serve: folders with their modes, a 1.x home brought to 2.0, the config
 * seeded where files are missing, and the two tokens. Safe to run on every start.
 */
export function prepareHome(
  paths: HomePaths,
  opts: { /** JIG_SANDBOX_DEFAULT: `none` seeds a new home's sandbox off. */ sandboxDefault?: string } = {},
): PreparedHome {
  mkdirSync(paths.home, { recursive: true });
  mkdirSync(paths.runDir, { recursive: true, mode: 0o700 });
  // mkdir's mode is masked by umask and ignored for an existing folder: set it outright.
  chmodSync(paths.runDir, 0o700);
  for (const dir of [paths.logsDir, paths.resultsDir, paths.worktreesDir, paths.attachmentsDir]) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }
  mkdirSync(paths.addonsDir, { recursive: true });

  const notices = moveLegacyConfigDir(paths);
  mkdirSync(paths.configDir, { recursive: true });
  // Before anything reads the config: a write cut off by a kill -9 leaves its temp file behind.
  const stale = [
    ...removeStaleTemps(paths.configDir),
    ...removeStaleTemps(paths.attachmentsDir).map((f) => `run/attachments/${f}`),
  ];
  if (stale.length > 0) {
    notices.push({
      level: 'info',
      key: 'stale_temps',
      message: `removed ${stale.length} temp file(s) an interrupted write left behind: ${stale.join(', ')}`,
    });
  }
  // policy.yaml first, whole with its sandbox; the rest of the packaged files after it.
  const kind = seedPolicy(paths.configDir, opts.sandboxDefault);
  const seeded = [...(kind === 'exists' ? [] : ['policy.yaml']), ...seedConfig(paths.configDir)];
  if (kind !== 'exists') {
    notices.push({
      level: kind === null ? 'warn' : 'info',
      key: 'sandbox_seeded',
      message:
        kind === null
          ? "no sandbox works here: tasks run with the server's reach (policy.yaml says how to turn one on; docs/sandbox.md)"
          : `every task runs in a ${kind} jail (seeded in policy.yaml; docs/sandbox.md)`,
    });
  }
  writeSchemas(paths.configDir);
  notices.push(...moveLegacyKeys(paths.configDir));

  const mcp = ensureTokenFile(paths.mcpTokenPath);
  ensureTokenFile(paths.triggerTokenPath, mcp);
  return { notices, seeded };
}
