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

/** `api-v2` → `JIG_MEMBER_API_V2`: a member name as a variable name (names are identifiers). */
export const memberVar = (name: string): string => `JIG_MEMBER_${name.toUpperCase().replace(/-/g, '_')}`;

/**
 * What every task of a workspace item is told (docs/workspaces.md): the workspace, its members in
 * order, and each member's worktree (once cut); a fanned-out run also its own member.
 */
function workspaceEnv(rec: ItemRecord, member: string | undefined): Record<string, string> {
  const ws = rec.workspace;
  if (!ws) return {};
  const env: Record<string, string> = {
    JIG_WORKSPACE: ws.name,
    JIG_MEMBERS: ws.members.map((m) => m.name).join(' '),
  };
  for (const m of ws.members) if (m.worktree_path) env[memberVar(m.name)] = m.worktree_path;
  if (member !== undefined) env.JIG_REPOSITORY = member;
  return env;
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
  member?: string,
): Record<string, string> {
  return taskEnv(repo, {
    JIG_WORK_ITEM_ID: rec.id,
    // A commit a task makes can name the item (the manual chain's commit message is its title).
    JIG_WORK_ITEM_TITLE: rec.title,
    JIG_DAEMON_PID: String(process.pid),
    JIG_DAEMON_PORT: String(port),
    ...workspaceEnv(rec, member),
    ...(escalation ? { JIG_ESCALATION_TURN: '1' } : {}),
  });
}
