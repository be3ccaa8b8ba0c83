import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** Every place Jig reads or writes under its home, resolved once from the environment. */
export interface HomePaths {
  home: string;
  configDir: string;
  /** How the config dir was chosen: the new variable, the legacy one, or the home's default. */
  configDirSource: 'JIG_CONFIG_DIR' | 'JIG_TEMPLATES_DIR' | 'home';
  runDir: string;
  logsDir: string;
  resultsDir: string;
  worktreesDir: string;
  attachmentsDir: string;
  dbPath: string;
  pidPath: string;
  /** Where the last server on this home listened: kept after it stops, for the CLI's discovery. */
  lastPortPath: string;
  mcpTokenPath: string;
  triggerTokenPath: string;
  serverLogPath: string;
  addonsDir: string;
}

export function resolveHomePaths(env: NodeJS.ProcessEnv = process.env): HomePaths {
  const home = resolve(env.JIG_HOME && env.JIG_HOME.trim() !== '' ? env.JIG_HOME : join(homedir(), '.jig'));
  let configDir = join(home, 'config');
  let configDirSource: HomePaths['configDirSource'] = 'home';
  if (env.JIG_CONFIG_DIR && env.JIG_CONFIG_DIR.trim() !== '') {
    configDir = resolve(env.JIG_CONFIG_DIR);
    configDirSource = 'JIG_CONFIG_DIR';
  } else if (env.JIG_TEMPLATES_DIR && env.JIG_TEMPLATES_DIR.trim() !== '') {
    // Legacy 1.x name, read only while the new variable is unset (spec: Behavior changes, Config).
    configDir = resolve(env.JIG_TEMPLATES_DIR);
    configDirSource = 'JIG_TEMPLATES_DIR';
  }
  const runDir = join(home, 'run');
  const logsDir = join(runDir, 'logs');
  return {
    home,
    configDir,
    configDirSource,
    runDir,
    logsDir,
    resultsDir: join(runDir, 'results'),
    worktreesDir: join(runDir, 'worktrees'),
    attachmentsDir: join(runDir, 'attachments'),
    dbPath: join(runDir, 'jig.db'),
    pidPath: join(runDir, 'jig.pid'),
    lastPortPath: join(runDir, 'last-port'),
    mcpTokenPath: join(runDir, 'mcp-token'),
    triggerTokenPath: join(runDir, 'trigger-token'),
    serverLogPath: join(logsDir, 'server.log'),
    addonsDir: join(home, 'addons'),
  };
}
