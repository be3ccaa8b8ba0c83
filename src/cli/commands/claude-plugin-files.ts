import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../../client/atomic-file.js';
import { parseManifest } from '../../contract/package-manifest.js';
import { packageFile } from '../package-files.js';
import { shellLine, type McpLaunch } from './agent-launch.js';

/*
 * The Claude Code plugin as files in the Jig home: a local marketplace (`claude-plugin/` holding
 * `.claude-plugin/marketplace.json`) with one plugin, `jig/` (`.claude-plugin/plugin.json`,
 * `.mcp.json` starting this install's `jig admin mcp`, and `commands/*.md`). The texts ship as
 * package data in defaults/claude-plugin/; what depends on this machine (the path of the CLI, the
 * home) is filled in here, so the plugin works without a global install.
 */

/** The marketplace's name and the plugin's id in Claude Code (`<plugin>@<marketplace>`). */
export const MARKETPLACE = 'jig';
export const PLUGIN_ID = 'jig@jig';
/** Claude Code names a plugin's MCP tools `mcp__plugin_<plugin>_<server>__<tool>`. */
const PLUGIN_TOOL_PREFIX = 'mcp__plugin_jig_jig__';
/**
 * …but drops a plugin's server that starts the same command as one the user registered (checked
 * with 2.1.197): after `jig admin init` also ran `claude mcp add jig`, the tools are `mcp__jig__<tool>`.
 * A command's `allowed-tools` names both so it works either way.
 */
const USER_TOOL_PREFIX = 'mcp__jig__';

export function pluginHomeDir(home: string): string {
  return join(home, 'claude-plugin');
}

export interface RenderedPlugin {
  /** `<package version>+<8 hex of the content>`: a new text or another path makes a new version. */
  version: string;
  /** Path (with `/`, from the marketplace root) to text. */
  files: Map<string, string>;
  /** The slash commands, `/jig:<name>`, sorted. */
  commands: string[];
}

/** Every file under `dir`, dot directories included, by its `/`-separated path from `dir`. */
function readTree(dir: string, base = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of readdirSync(join(dir, base), { withFileTypes: true })) {
    const rel = base === '' ? e.name : `${base}/${e.name}`;
    if (e.isDirectory()) for (const [k, v] of readTree(dir, rel)) out.set(k, v);
    else if (e.isFile()) out.set(rel, readFileSync(join(dir, rel), 'utf8'));
  }
  return out;
}

function packageVersion(): string {
  return parseManifest(readFileSync(packageFile('package.json'), 'utf8'))?.version ?? '0.0.0';
}

/** `{{tools: a, b}}` → both names of each tool (see USER_TOOL_PREFIX), comma-separated. */
function expandTools(list: string): string {
  return list
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '')
    .flatMap((t) => [`${USER_TOOL_PREFIX}${t}`, `${PLUGIN_TOOL_PREFIX}${t}`])
    .join(', ');
}

/** The plugin's files for this machine: `launch` starts `jig admin mcp`, `cli` the `jig` CLI. */
export function renderPlugin(mcp: McpLaunch, cli: McpLaunch): RenderedPlugin {
  const source = readTree(packageFile('defaults/claude-plugin'));
  const cliLine = shellLine(cli);
  const files = new Map<string, string>();
  for (const [path, text] of [...source].sort(([a], [b]) => a.localeCompare(b))) {
    files.set(
      path,
      text
        .replace(/\{\{tools:([^}]*)\}\}/g, (_m, list: string) => expandTools(list))
        .replaceAll('{{jig}}', cliLine),
    );
  }
  const server = { command: mcp.command, args: mcp.args, env: mcp.env };
  files.set('jig/.mcp.json', `${JSON.stringify({ mcpServers: { jig: server } }, null, 2)}\n`);
  // The version is of the content before it is stamped in, so stamping cannot change it.
  const hash = createHash('sha256');
  for (const [path, text] of [...files].sort(([a], [b]) => a.localeCompare(b)))
    hash.update(`${path}\0${text}\0`);
  const version = `${packageVersion()}+${hash.digest('hex').slice(0, 8)}`;
  for (const [path, text] of files) {
    const stamped = text.replaceAll('{{version}}', version);
    // A placeholder left over is a packaging mistake: refuse rather than install it.
    const left = /\{\{[^}]*\}\}/.exec(stamped);
    if (left) throw new Error(`defaults/claude-plugin/${path}: unknown placeholder ${left[0]}`);
    files.set(path, stamped);
  }
  const commands = [...files.keys()]
    .map((p) => /^jig\/commands\/([^/]+)\.md$/.exec(p)?.[1])
    .filter((n): n is string => n !== undefined)
    .map((n) => `/jig:${n}`)
    .sort();
  return { version, files, commands };
}

function sameTree(a: Map<string, string>, b: Map<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (b.get(k) !== v) return false;
  return true;
}

/**
 * Puts the plugin at `dir`, whole: written beside it, then swapped in by renames, so Claude Code
 * (which reads a directory marketplace's plugin in place) sees the old plugin or the new one, and a
 * command dropped from a new version does not linger. Answers whether anything changed.
 */
export function writePlugin(dir: string, plugin: RenderedPlugin): 'written' | 'unchanged' {
  if (existsSync(dir) && sameTree(readTree(dir), plugin.files)) return 'unchanged';
  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const fresh = `${dir}.new-${tag}`;
  const old = `${dir}.old-${tag}`;
  mkdirSync(dirname(dir), { recursive: true });
  try {
    for (const [path, text] of plugin.files) {
      const file = join(fresh, ...path.split('/'));
      mkdirSync(dirname(file), { recursive: true });
      writeFileAtomic(file, text, 0o644);
    }
    const had = existsSync(dir);
    if (had) renameSync(dir, old);
    try {
      renameSync(fresh, dir);
    } catch (err) {
      if (had) renameSync(old, dir);
      throw err;
    }
  } finally {
    rmSync(fresh, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
  return 'written';
}
