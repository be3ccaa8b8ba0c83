import type { AccessFile } from '../contract/config/access.js';

/** Addresses only this machine can reach. */
const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

export interface Exposure {
  /** Whether other machines can reach the port (any address but a loopback one). */
  offLoopback: boolean;
  /** What a person binding off loopback should fix, one sentence each. */
  warnings: string[];
}

/**
 * What the start line says about who can reach the server. Off loopback, the perimeter refuses
 * every remote caller until a password is set, and a browser sent by another name than a loopback
 * one is refused until that name is in allowed_hosts: both are safe, but a person who bound to a
 * network address to reach the board from elsewhere needs to know why it does not open.
 */
export function exposureOf(
  bind: string,
  access: Pick<AccessFile, 'password_hash' | 'allowed_hosts'>,
): Exposure {
  if (LOOPBACK.has(bind) || bind.startsWith('127.')) return { offLoopback: false, warnings: [] };
  const warnings: string[] = [];
  if (!access.password_hash)
    warnings.push(
      'no password is set, so every caller from another machine is refused (403); set one with `jig admin password`',
    );
  if (access.allowed_hosts.length === 0)
    warnings.push(
      'allowed_hosts in access.yaml is empty, so browsers reach the board only by a loopback name; list the name they use (for example `allowed_hosts: [jig.example.com]`)',
    );
  return { offLoopback: true, warnings };
}
