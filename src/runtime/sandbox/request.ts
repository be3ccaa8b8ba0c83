import type { SandboxCredential } from '../../contract/config/sandbox.js';
import type { LoginFile } from './logins.js';

/** The jails Jig runs (`none` is no jail, so no request). */
export type JailKind = 'bubblewrap' | 'podman' | 'docker';

/** A container's limits, as written in `sandbox.resources`. */
export interface SandboxResources {
  cpu?: number | string;
  memory?: string;
  pids?: number;
}

/** What a sandboxed launch needs beyond the task itself (resolved by sandbox-policy.ts). */
export interface SandboxRequest {
  kind: JailKind;
  /** bwrap, podman or docker, resolved on PATH. */
  program: string;
  /** The image a container kind runs (null under bubblewrap). */
  image: string | null;
  resources: SandboxResources | null;
  network:
    | { mode: 'open'; jigPort: number | null }
    | {
        mode: 'proxied';
        allow: string[];
        deny: string[];
        jigPort: number | null;
        credentials: SandboxCredential[];
      };
  /** More worktrees of the item (a workspace's members), read-write. */
  worktrees: string[];
  /** An agent launch's: the files that sign its CLI in, copied into the item's HOME. */
  logins?: readonly LoginFile[];
}

/** Where a jailed task reaches Jig's API (relayed inside at its own port), or null outside a proxied jail. */
export function relayedUrl(s: SandboxRequest | null): string | null {
  return s?.network.mode === 'proxied' && s.network.jigPort !== null
    ? `http://127.0.0.1:${s.network.jigPort}`
    : null;
}

/**
 * The hosts a proxied jail lets through: its allow list and the hosts of each credential the task
 * has (its variable set in `env`); a credential without its secret adds nothing, not even its hosts.
 */
export function allowedHosts(
  n: { allow: string[]; credentials: SandboxCredential[] },
  env: Record<string, string | undefined>,
): string[] {
  const held = n.credentials.filter((c) => (env[c.env] ?? '') !== '');
  return [...new Set([...n.allow, ...held.flatMap((c) => c.hosts)])];
}
