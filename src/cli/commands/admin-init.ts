import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { writeFileAtomic } from '../../client/atomic-file.js';
import { EXIT_FAIL, EXIT_OK, EXIT_USAGE, runVerb } from '../output.js';
import { repoOfCwd } from '../repo-of-cwd.js';

/*
 * `jig admin init [--repo]`: registers `jig admin mcp` with each agent CLI found on PATH, in the
 * place that CLI reads its MCP servers from. Without --repo for the user (every project), with it
 * for that repository only where the CLI has a per-project file. Idempotent: an agent that already
 * has a `jig` server is left as it is, and a second run says nothing changed.
 */

/** How an agent CLI should start the MCP server. */
export interface McpLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

type Outcome = { agent: string; state: 'changed' | 'unchanged' | 'skipped' | 'failed'; line: string };

function onPath(names: string[], env: NodeJS.ProcessEnv): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    for (const name of names) {
      const file = join(dir, name);
      try {
        accessSync(file, constants.X_OK);
        if (statSync(file).isFile()) return file;
      } catch {
        // Not here; the next directory may have it.
      }
    }
  }
  return null;
}

/** `jig admin mcp` as this machine can start it: `jig` on PATH, else node and this package's bin. */
export function mcpLaunch(env: NodeJS.ProcessEnv = process.env): McpLaunch {
  const extra: Record<string, string> = {};
  if (env.JIG_HOME && env.JIG_HOME.trim() !== '') extra.JIG_HOME = resolve(env.JIG_HOME);
  if (onPath(['jig'], env)) return { command: 'jig', args: ['admin', 'mcp'], env: extra };
  const bin = fileURLToPath(new URL('../../../bin/jig.js', import.meta.url));
  return { command: process.execPath, args: [bin, 'admin', 'mcp'], env: extra };
}

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

/** Gemini `settings.json` and Cursor `mcp.json`: `mcpServers.jig = {command, args, env}`. */
function registerInJson(agent: string, path: string, launch: McpLaunch): Outcome {
  const read = readJsonObject(path);
  if (!read.ok) return { agent, state: 'failed', line: read.why };
  const servers = read.value.mcpServers;
  const map: Record<string, unknown> =
    servers !== null && typeof servers === 'object' && !Array.isArray(servers) ? { ...servers } : {};
  const want = { command: launch.command, args: launch.args, env: launch.env };
  if (JSON.stringify(map.jig) === JSON.stringify(want))
    return { agent, state: 'unchanged', line: `${path} already runs jig admin mcp; unchanged` };
  const had = map.jig !== undefined;
  map.jig = want;
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic(path, `${JSON.stringify({ ...read.value, mcpServers: map }, null, 2)}\n`, modeOf(path));
  return { agent, state: 'changed', line: `${had ? 'updated' : 'added'} mcpServers.jig in ${path}` };
}

const tomlString = (s: string): string => JSON.stringify(s);

/** Codex `config.toml`: a `[mcp_servers.jig]` table, appended once (Codex has no per-project file). */
function registerInCodex(path: string, launch: McpLaunch): Outcome {
  const agent = 'codex';
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  if (/^\s*\[mcp_servers\.jig\]\s*$/m.test(text))
    return { agent, state: 'unchanged', line: `${path} already has [mcp_servers.jig]; unchanged` };
  const lines = [
    '[mcp_servers.jig]',
    `command = ${tomlString(launch.command)}`,
    `args = [${launch.args.map(tomlString).join(', ')}]`,
  ];
  const env = Object.entries(launch.env);
  if (env.length > 0)
    lines.push('', '[mcp_servers.jig.env]', ...env.map(([k, v]) => `${k} = ${tomlString(v)}`));
  const sep = text === '' ? '' : text.endsWith('\n') ? '\n' : '\n\n';
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic(path, `${text}${sep}${lines.join('\n')}\n`, modeOf(path));
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

/** Registers with every agent CLI on PATH; `repo` picks the per-project files where a CLI has them. */
export function initAgents(repo: string | null, env: NodeJS.ProcessEnv = process.env): Outcome[] {
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

  if (onPath(['codex'], env)) {
    const codexHome = env.CODEX_HOME && env.CODEX_HOME !== '' ? env.CODEX_HOME : join(home, '.codex');
    const o = registerInCodex(join(codexHome, 'config.toml'), launch);
    if (repo && o.state === 'changed')
      o.line += ' (Codex has no per-project MCP file: this is for every project)';
    out.push(o);
  } else out.push(missing('codex', ['codex']));

  out.push(
    onPath(['gemini'], env)
      ? registerInJson('gemini', join(repo ?? home, '.gemini', 'settings.json'), launch)
      : missing('gemini', ['gemini']),
  );
  out.push(
    onPath(['cursor-agent', 'cursor'], env)
      ? registerInJson('cursor', join(repo ?? home, '.cursor', 'mcp.json'), launch)
      : missing('cursor', ['cursor-agent', 'cursor']),
  );
  return out;
}

export function registerInit(admin: Command): void {
  admin
    .command('init')
    .description(
      'register `jig admin mcp` with the agent CLIs on PATH (Claude Code, Codex, Gemini, Cursor); ' +
        'a second run changes nothing; exits 1 when a registration fails',
    )
    .option('--repo [path]', 'register for this repository only (default: the checkout you are in)')
    .action((opts: { repo?: string | boolean }) =>
      runVerb(async () => {
        let repo: string | null = null;
        if (typeof opts.repo === 'string') repo = resolve(opts.repo);
        else if (opts.repo === true) {
          repo = repoOfCwd();
          if (!repo) {
            process.stderr.write('jig: --repo: not in a git checkout; pass --repo PATH\n');
            return EXIT_USAGE;
          }
        }
        const results = initAgents(repo);
        const lines = results.map((r) => `${r.agent}: ${r.line}`);
        const changed = results.filter((r) => r.state === 'changed').length;
        if (changed === 0) lines.push('nothing changed');
        else
          lines.push(
            `changed ${changed} agent configuration(s); restart the agent CLIs to load the jig tools`,
          );
        process.stdout.write(`${lines.join('\n')}\n`);
        return results.some((r) => r.state === 'failed') ? EXIT_FAIL : EXIT_OK;
      }),
    );
}
