import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, resolve } from 'node:path';
import { packageFile } from '../package-files.js';

/*
 * How an agent CLI on this machine starts the `jig` CLI: what `jig admin init` registers as the MCP
 * server and what the Claude Code plugin names in its files. Shared by both so they cannot differ.
 */

/** A command line with the environment it needs (JIG_HOME when the home is not the default). */
export interface McpLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** The first executable file of one of `names` on the PATH of `env`. */
export function onPath(names: string[], env: NodeJS.ProcessEnv): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    for (const name of names) {
      const file = resolve(dir, name);
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

/**
 * The `jig` CLI as this machine can start it: the absolute path of the `jig` on PATH (an agent CLI
 * may start servers with another PATH), else node and this package's bin.
 */
export function jigLaunch(env: NodeJS.ProcessEnv = process.env): McpLaunch {
  const extra: Record<string, string> = {};
  if (env.JIG_HOME && env.JIG_HOME.trim() !== '') extra.JIG_HOME = resolve(env.JIG_HOME);
  const jig = onPath(['jig'], env);
  if (jig) return { command: jig, args: [], env: extra };
  return { command: process.execPath, args: [packageFile('bin/jig.js')], env: extra };
}

/** `jig admin mcp`, Jig's stdio MCP server, as `jigLaunch` starts it. */
export function mcpLaunch(env: NodeJS.ProcessEnv = process.env): McpLaunch {
  const jig = jigLaunch(env);
  return { ...jig, args: [...jig.args, 'admin', 'mcp'] };
}

/** One shell word: left bare when it is plain, else single-quoted. */
export function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`;
}

/** A launch as one line a person (or an agent's shell tool) can paste: `JIG_HOME=… node …/jig.js`. */
export function shellLine(launch: McpLaunch): string {
  const env = Object.entries(launch.env).map(([k, v]) => `${k}=${shellWord(v)}`);
  return [...env, ...[launch.command, ...launch.args].map(shellWord)].join(' ');
}
