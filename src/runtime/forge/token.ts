import { execFile } from 'node:child_process';
import type { ForgeKind } from '../../core/forge/locate.js';
import { resolveExecutable } from '../harness/installed.js';

/** The variables each forge's token is read from, after JIG_FORGE_TOKEN. */
export const TOKEN_VARS: Record<ForgeKind, string[]> = {
  github: ['GITHUB_TOKEN', 'GH_TOKEN'],
  gitlab: ['GITLAB_TOKEN'],
  gitea: ['GITEA_TOKEN'],
};

/** The logged-in CLI that can hand over its token, per forge (Gitea's `tea` cannot). */
const CLI: Partial<Record<ForgeKind, (host: string) => [string, string[]]>> = {
  github: (host) => ['gh', ['auth', 'token', '--hostname', host]],
  gitlab: (host) => ['glab', ['config', 'get', 'token', '--host', host]],
};

export type TokenAnswer = { ok: true; token: string; source: string } | { ok: false; reason: string };

function fromCli(cmd: string, args: string[], timeoutMs: number): Promise<string | null> {
  if (resolveExecutable(cmd) === null) return Promise.resolve(null);
  return new Promise((resolve) => {
    execFile(cmd, args, { timeout: timeoutMs, env: process.env }, (err, stdout) => {
      const token = String(stdout).trim();
      resolve(err || token === '' || /\s/.test(token) ? null : token);
    });
  });
}

/**
 * The token for a forge: JIG_FORGE_TOKEN, then the forge's own variables, then its logged-in CLI.
 * The answer names where it came from, never the token; a missing one says what to set.
 */
export async function forgeToken(
  forge: ForgeKind,
  host: string,
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = 10_000,
): Promise<TokenAnswer> {
  for (const name of ['JIG_FORGE_TOKEN', ...TOKEN_VARS[forge]]) {
    const v = env[name]?.trim();
    if (v) return { ok: true, token: v, source: name };
  }
  const cli = CLI[forge]?.(host);
  if (cli) {
    const token = await fromCli(cli[0], cli[1], timeoutMs);
    if (token) return { ok: true, token, source: `${cli[0]} ${cli[1].slice(0, 2).join(' ')}` };
  }
  const vars = ['JIG_FORGE_TOKEN', ...TOKEN_VARS[forge]].join(', ');
  const login = cli ? `, or log in with \`${cli[0]} auth login\`` : '';
  return {
    ok: false,
    reason: `no ${forge} token for ${host}: set ${vars} in the server's environment${login}`,
  };
}
