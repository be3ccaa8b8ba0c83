import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { writeFileAtomic } from '../../client/atomic-file.js';
import { EXIT_FAIL, EXIT_OK, EXIT_USAGE, runVerb } from '../output.js';
import { repoOfCwd } from '../repo-of-cwd.js';
import { mcpLaunch, onPath, type McpLaunch } from './agent-launch.js';
import { filesLine, installClaudePlugin, type PluginInstall } from './claude-plugin-install.js';

/*
 * `jig admin init [--repo]`: registers `jig admin mcp` with each agent CLI found on PATH, in the
 * place that CLI reads its MCP servers from. Without --repo for the user (every project), with it
 * for that repository only where the CLI has a per-project file. Idempotent: an agent that already
 * has a `jig` server is left as it is, and a second run says nothing changed. A `jig` entry that
 * differs is the user's: left as it is unless --force replaces it (JSON files only: jig appends to a
 * TOML file and never rewrites one, so a different Codex entry is for the user to edit). It also
 * writes the Claude Code plugin into the Jig home and installs it (claude-plugin-install.ts).
 */

type Outcome = { agent: string; state: 'changed' | 'unchanged' | 'skipped' | 'failed'; line: string };

/** A JSON settings file's object, or the reason it cannot be read as one (then it is not touched). */
function readJsonObject(
  path: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; why: string } {
  if (!existsSync(path)) return { ok: true, value: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    return { ok: false, why: `${path} is not valid JSON (${(err as Error).message}); fix it and run again` };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return { ok: false, why: `${path} does not hold a JSON object; fix it and run again` };
  return { ok: true, value: { ...parsed } };
}

function modeOf(path: string): number {
  try {
    return statSync(path).mode & 0o777;
  } catch {
    return 0o600;
  }
}

/** Where to write `path`: the file a symlink points at, so the link stays a link. */
function writeTarget(path: string): string {
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    return path;
  }
  return realpathSync(path);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

const differs = (agent: string, path: string, hint: string): Outcome => ({
  agent,
  state: 'unchanged',
  line: `a different jig entry exists in ${path}; left as it is (${hint})`,
});

/** Gemini `settings.json` and Cursor `mcp.json`: `mcpServers.jig = {command, args, env}`. */
function registerInJson(agent: string, path: string, launch: McpLaunch, force: boolean): Outcome {
  const read = readJsonObject(path);
  if (!read.ok) return { agent, state: 'failed', line: read.why };
  const servers = read.value.mcpServers;
  const map: Record<string, unknown> = isRecord(servers) ? { ...servers } : {};
  const want = { command: launch.command, args: launch.args, env: launch.env };
  if (JSON.stringify(map.jig) === JSON.stringify(want))
    return { agent, state: 'unchanged', line: `${path} already runs jig admin mcp; unchanged` };
  const had = map.jig !== undefined;
  if (had && !force) return differs(agent, path, '--force replaces it');
  map.jig = want;
  const target = writeTarget(path);
  writeFileAtomic(target, `${JSON.stringify({ ...read.value, mcpServers: map }, null, 2)}\n`, modeOf(target));
  return { agent, state: 'changed', line: `${had ? 'replaced' : 'added'} mcpServers.jig in ${path}` };
}

const tomlString = (s: string): string => JSON.stringify(s);

/** A TOML file as a table, or the reason it cannot be read as one (then it is not touched). */
function readToml(path: string): { ok: true; text: string; value: unknown } | { ok: false; why: string } {
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  try {
    return { ok: true, text, value: parseToml(text) };
  } catch (err) {
    const first = (err as Error).message.split('\n')[0];
    return { ok: false, why: `${path} is not valid TOML (${first}); fix it and run again` };
  }
}

/** The `mcp_servers.jig` table of a parsed config, however it was spelled (quoted, spaced, dotted). */
function codexJig(value: unknown): unknown {
  if (!isRecord(value) || !isRecord(value.mcp_servers)) return undefined;
  return value.mcp_servers.jig;
}

/** Whether a Codex table starts the same server: its command, args and env (other keys are the user's). */
function sameLaunch(table: unknown, launch: McpLaunch): boolean {
  if (!isRecord(table)) return false;
  const env = isRecord(table.env) ? table.env : {};
  const sorted = (o: Record<string, unknown>) => JSON.stringify(Object.entries(o).sort());
  return (
    table.command === launch.command &&
    JSON.stringify(table.args) === JSON.stringify(launch.args) &&
    sorted(env) === sorted(launch.env)
  );
}

/**
 * Codex `config.toml`: a `[mcp_servers.jig]` table, appended once (Codex has no per-project file).
 * The user's TOML is never rewritten, so a different entry stays even with --force.
 */
function registerInCodex(path: string, launch: McpLaunch): Outcome {
  const agent = 'codex';
  const read = readToml(path);
  if (!read.ok) return { agent, state: 'failed', line: read.why };
  const { text } = read;
  const had = codexJig(read.value);
  if (had !== undefined) {
    if (sameLaunch(had, launch))
      return { agent, state: 'unchanged', line: `${path} already has [mcp_servers.jig]; unchanged` };
    return differs(agent, path, 'jig does not rewrite a TOML file: edit it by hand');
  }
  const lines = [
    '[mcp_servers.jig]',
    `command = ${tomlString(launch.command)}`,
    `args = [${launch.args.map(tomlString).join(', ')}]`,
  ];
  const env = Object.entries(launch.env);
  if (env.length > 0)
    lines.push('', '[mcp_servers.jig.env]', ...env.map(([k, v]) => `${k} = ${tomlString(v)}`));
  const sep = text === '' ? '' : text.endsWith('\n') ? '\n' : '\n\n';
  const next = `${text}${sep}${lines.join('\n')}\n`;
  // An inline `mcp_servers = {...}` cannot take a new table after it: check before writing.
  let after: unknown;
  try {
    after = parseToml(next);
  } catch {
    after = undefined;
  }
  if (!sameLaunch(codexJig(after), launch))
    return {
      agent,
      state: 'failed',
      line: `${path} cannot take a [mcp_servers.jig] table appended (is mcp_servers an inline table?); add it by hand`,
    };
  const target = writeTarget(path);
  writeFileAtomic(target, next, modeOf(target));
  return { agent, state: 'changed', line: `added [mcp_servers.jig] to ${path}` };
}

/** Claude Code through its own CLI (`claude mcp get|add`), which owns its config files. */
function registerInClaude(bin: string, launch: McpLaunch, repo: string | null): Outcome {
  const agent = 'claude';
  const scope = repo ? 'project' : 'user';
  const cwd = repo ?? process.cwd();
  const run = (args: string[]) =>
    spawnSync(bin, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
  const got = run(['mcp', 'get', 'jig']);
  if (got.status === 0)
    return { agent, state: 'unchanged', line: `Claude Code already has an MCP server named jig; unchanged` };
  const envArgs = Object.entries(launch.env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  // The name goes before -e: `-e` takes several values and would swallow it.
  const args = ['mcp', 'add', '-s', scope, 'jig', ...envArgs, '--', launch.command, ...launch.args];
  const added = run(args);
  const shown = `claude ${args.join(' ')}`;
  if (added.status !== 0) {
    const why = `${added.stderr || added.stdout || added.error?.message || ''}`.trim().split('\n')[0];
    return { agent, state: 'failed', line: `\`${shown}\` failed: ${why || `exit ${added.status}`}` };
  }
  return { agent, state: 'changed', line: `ran \`${shown}\`${repo ? ` in ${repo}` : ''}` };
}

/**
 * The Claude Code plugin: its files in the Jig home (the `plugin` line) and its install into Claude
 * Code (`claude plugin`), which says the command to run when `claude` is not on PATH.
 */
function claudePlugin(repo: string | null, force: boolean, env: NodeJS.ProcessEnv): Outcome[] {
  let p: PluginInstall;
  try {
    p = installClaudePlugin(repo, force, env);
  } catch (err) {
    const why = `could not write the Claude Code plugin: ${(err as Error).message}`;
    return [{ agent: 'plugin', state: 'failed', line: why }];
  }
  return [
    { agent: 'plugin', state: p.files === 'written' ? 'changed' : 'unchanged', line: filesLine(p) },
    { agent: 'claude plugin', state: p.claude.state, line: p.claude.line },
  ];
}

/** Registers with every agent CLI on PATH; `repo` picks the per-project files where a CLI has them. */
export function initAgents(
  repo: string | null,
  force = false,
  env: NodeJS.ProcessEnv = process.env,
): Outcome[] {
  const home = env.HOME && env.HOME !== '' ? env.HOME : homedir();
  const launch = mcpLaunch(env);
  const out: Outcome[] = [];
  const missing = (agent: string, names: string[]): Outcome => ({
    agent,
    state: 'skipped',
    line: `${names.join(' or ')} not found on PATH; skipped`,
  });

  const claude = onPath(['claude'], env);
  out.push(claude ? registerInClaude(claude, launch, repo) : missing('claude', ['claude']));
  out.push(...claudePlugin(repo, force, env));

  if (onPath(['codex'], env)) {
    const codexHome = env.CODEX_HOME && env.CODEX_HOME !== '' ? env.CODEX_HOME : join(home, '.codex');
    const o = registerInCodex(join(codexHome, 'config.toml'), launch);
    if (repo && o.state === 'changed')
      o.line += ' (Codex has no per-project MCP file: this is for every project)';
    out.push(o);
  } else out.push(missing('codex', ['codex']));

  out.push(
    onPath(['gemini'], env)
      ? registerInJson('gemini', join(repo ?? home, '.gemini', 'settings.json'), launch, force)
      : missing('gemini', ['gemini']),
  );
  out.push(
    onPath(['cursor-agent', 'cursor'], env)
      ? registerInJson('cursor', join(repo ?? home, '.cursor', 'mcp.json'), launch, force)
      : missing('cursor', ['cursor-agent', 'cursor']),
  );
  return out;
}

/** `jig admin init`. */
export function adminInit(opts: { repo?: string | boolean; force?: boolean }): Promise<void> {
  return runVerb(async () => {
    let repo: string | null = null;
    if (typeof opts.repo === 'string') repo = resolve(opts.repo);
    else if (opts.repo === true) {
      repo = repoOfCwd();
      if (!repo) {
        process.stderr.write('jig: --repo: not in a git checkout; pass --repo PATH\n');
        return EXIT_USAGE;
      }
    }
    const results = initAgents(repo, opts.force === true);
    const lines = results.map((r) => `${r.agent}: ${r.line}`);
    // The plugin's files in the Jig home are not an agent's configuration: counted apart.
    const changed = results.filter((r) => r.state === 'changed' && r.agent !== 'plugin').length;
    if (changed > 0)
      lines.push(`changed ${changed} agent configuration(s); restart the agent CLIs to load the jig tools`);
    else if (results.some((r) => r.state === 'changed'))
      lines.push('no agent configuration changed; restart Claude Code to load the new plugin files');
    else lines.push('nothing changed');
    process.stdout.write(`${lines.join('\n')}\n`);
    return results.some((r) => r.state === 'failed') ? EXIT_FAIL : EXIT_OK;
  });
}
