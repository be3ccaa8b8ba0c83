import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { jigHome } from '../../client/discover.js';
import { jigLaunch, mcpLaunch, onPath, shellWord } from './agent-launch.js';
import { MARKETPLACE, PLUGIN_ID, pluginHomeDir, renderPlugin, writePlugin } from './claude-plugin-files.js';

/*
 * Installs the plugin: its files into the Jig home (always), then into Claude Code through Claude's
 * own CLI when `claude` is on PATH (`claude plugin marketplace add <dir>`, `claude plugin install
 * jig@jig`; 2.1.197 has both, non-interactive), which owns its settings files. Without --repo at
 * user scope; with it at local scope (the repository's .claude/settings.local.json, not committed:
 * the marketplace's path is this machine's). A refresh with a new version runs `claude plugin
 * marketplace update jig` and `claude plugin update jig@jig`.
 */

export type State = 'changed' | 'unchanged' | 'skipped' | 'failed';

export interface ClaudeStep {
  state: State;
  line: string;
  /** The `claude …` command lines run that changed something, in order. */
  ran: string[];
}

export interface PluginInstall {
  dir: string;
  version: string;
  commands: string[];
  files: 'written' | 'unchanged';
  claude: ClaudeStep;
}

function samePath(a: unknown, b: string): boolean {
  if (typeof a !== 'string' || a === '') return false;
  const real = (p: string) => (existsSync(p) ? realpathSync(p) : resolve(p));
  return real(a) === real(b);
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** The command a person runs to do by hand what `installInClaude` does. */
export function enableHint(dir: string, repo: string | null): string {
  const scope = repo ? ' --scope local' : '';
  const inRepo = repo ? `cd ${shellWord(repo)} && ` : '';
  return `${inRepo}claude plugin marketplace add${scope} ${shellWord(dir)} && claude plugin install${repo ? ' -s local' : ''} ${PLUGIN_ID}`;
}

/** Adds the marketplace and installs (or updates) the plugin in the Claude Code `bin` runs. */
export function installInClaude(
  bin: string,
  dir: string,
  version: string,
  repo: string | null,
  force: boolean,
): ClaudeStep {
  const scope = repo ? 'local' : 'user';
  const ran: string[] = [];
  let why = '';
  const run = (args: string[]) =>
    spawnSync(bin, args, {
      cwd: repo ?? process.cwd(),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    });
  const shown = (args: string[]) => `claude ${args.map(shellWord).join(' ')}`;
  /** Runs a command that changes Claude's config; false (and `why`) when it failed. */
  const act = (args: string[]): boolean => {
    const r = run(args);
    if (r.status === 0) {
      ran.push(shown(args));
      return true;
    }
    const err = `${r.stderr || r.stdout || r.error?.message || ''}`.trim().split('\n')[0];
    why = `\`${shown(args)}\` failed: ${err || `exit ${r.status}`}`;
    return false;
  };
  /** A `--json` listing as an array of objects, or null (and `why`). */
  const list = (args: string[]): Record<string, unknown>[] | null => {
    const r = run(args);
    try {
      const v: unknown = JSON.parse(r.stdout);
      if (r.status === 0 && Array.isArray(v)) return v.filter(isRecord);
    } catch {
      // Said below: a Claude Code without `plugin` answers usage text, not JSON.
    }
    const err = `${r.stderr || r.error?.message || ''}`.trim().split('\n')[0];
    why = `\`${shown(args)}\` did not answer a JSON list${err ? ` (${err})` : ''}; is this Claude Code older than its plugins?`;
    return null;
  };
  const failed = (): ClaudeStep => ({ state: 'failed', line: why, ran });

  const markets = list(['plugin', 'marketplace', 'list', '--json']);
  if (!markets) return failed();
  const market = markets.find((m) => m.name === MARKETPLACE);
  const add = ['plugin', 'marketplace', 'add', '--scope', scope, dir];
  let added = false;
  if (!market) {
    if (!act(add)) return failed();
    added = true;
  } else if (!samePath(market.path ?? market.installLocation, dir)) {
    const where = market.path ?? market.installLocation;
    const from = typeof where === 'string' ? where : 'elsewhere';
    if (!force)
      return {
        state: 'unchanged',
        line: `Claude Code has another marketplace named ${MARKETPLACE} (${from}); left as it is (--force replaces it)`,
        ran,
      };
    if (!act(['plugin', 'marketplace', 'remove', MARKETPLACE]) || !act(add)) return failed();
    added = true;
  }

  const plugins = list(['plugin', 'list', '--json']);
  if (!plugins) return failed();
  const mine = plugins.find(
    (p) => p.id === PLUGIN_ID && p.scope === scope && (repo === null || samePath(p.projectPath, repo)),
  );
  if (!mine) {
    if (!act(['plugin', 'install', '-s', scope, PLUGIN_ID])) return failed();
    return { state: 'changed', line: `installed ${PLUGIN_ID} ${version} (ran ${ran.join('; ')})`, ran };
  }
  if (mine.version !== version) {
    // Claude Code keeps a copy per version: it learns of the new one from the marketplace first.
    if (!added && !act(['plugin', 'marketplace', 'update', MARKETPLACE])) return failed();
    if (!act(['plugin', 'update', '-s', scope, PLUGIN_ID])) return failed();
    return {
      state: 'changed',
      line: `updated ${PLUGIN_ID} from ${String(mine.version)} to ${version} (ran ${ran.join('; ')})`,
      ran,
    };
  }
  const off =
    mine.enabled === false
      ? `; it is disabled: \`claude plugin enable${repo ? ' -s local' : ''} ${PLUGIN_ID}\` enables it`
      : '';
  return {
    state: added ? 'changed' : 'unchanged',
    line: `${PLUGIN_ID} ${version} is installed${added ? ` (ran ${ran.join('; ')})` : '; unchanged'}${off}`,
    ran,
  };
}

/**
 * Writes the plugin into the home of `env` and installs it into Claude Code when `claude` is on its
 * PATH; without it, the step is skipped and its line says the command that enables the plugin.
 */
export function installClaudePlugin(
  repo: string | null,
  force: boolean,
  env: NodeJS.ProcessEnv = process.env,
): PluginInstall {
  const dir = pluginHomeDir(jigHome(env));
  const plugin = renderPlugin(mcpLaunch(env), jigLaunch(env));
  const files = writePlugin(dir, plugin);
  const base = { dir, version: plugin.version, commands: plugin.commands, files };
  const bin = onPath(['claude'], env);
  if (!bin)
    return {
      ...base,
      claude: {
        state: 'skipped',
        line: `claude not found on PATH; to enable the plugin in Claude Code run: ${enableHint(dir, repo)}`,
        ran: [],
      },
    };
  return { ...base, claude: installInClaude(bin, dir, plugin.version, repo, force) };
}

/** The line saying what happened to the files in the home. */
export function filesLine(p: PluginInstall): string {
  const what = `the Claude Code plugin ${PLUGIN_ID} ${p.version} (${p.commands.join(' ')})`;
  return p.files === 'written' ? `wrote ${what} to ${p.dir}` : `${p.dir} holds ${what}; unchanged`;
}
