import type { RepoEntry } from '../../contract/config/repos.js';
import type { ItemRecord } from '../../store/work-items.js';

/** Variables a task inherits from the server; everything else is left out on purpose. */
const ALLOWED_ENV = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
  'TERM',
  'SSH_AUTH_SOCK',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'NODE_EXTRA_CA_CERTS',
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
];

export function taskEnv(
  repo: RepoEntry,
  extra: Record<string, string>,
  base: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) {
    if (v !== undefined && (ALLOWED_ENV.includes(k) || k.startsWith('LC_'))) env[k] = v;
  }
  for (const name of repo.env_passthrough ?? []) {
    const v = base[name];
    if (v !== undefined) env[name] = v;
  }
  return { ...env, ...repo.env, ...extra };
}

/**
 * The environment every task of an item is launched with: the allowlist, the repo's env, Jig's own.
 * An escalation turn also has `JIG_ESCALATION_TURN=1`: it is not a worker, so its `jig` client
 * does not say it runs inside the item (a worker may not change its own item's draft).
 */
export function launchEnv(
  rec: ItemRecord,
  repo: RepoEntry,
  port: number,
  escalation = false,
): Record<string, string> {
  return taskEnv(repo, {
    JIG_WORK_ITEM_ID: rec.id,
    JIG_DAEMON_PID: String(process.pid),
    JIG_DAEMON_PORT: String(port),
    ...(escalation ? { JIG_ESCALATION_TURN: '1' } : {}),
  });
}
