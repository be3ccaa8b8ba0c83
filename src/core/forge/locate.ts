/*
 * Where a repository's merge requests live: which forge, which project on it, and the base of its
 * HTTP API, from `repos.yaml` (`forge`, `project`, `forge_url`) and the `origin` remote.
 */

import type { ForgeKind } from '../../contract/config/repos.js';

export type { ForgeKind };

export interface ForgeLocation {
  forge: ForgeKind;
  /** `owner/name` (GitHub, Gitea) or the GitLab project path (`group/sub/name`). */
  project: string;
  /** The API base, without a trailing slash (`https://api.github.com`, `https://gitlab.com/api/v4`). */
  api_url: string;
}

export interface RemoteParts {
  host: string;
  /** The path on the host, without `.git` and slashes around it. */
  path: string;
  /** `https` for an scp-like or ssh remote (the API is spoken over HTTPS), else the URL's own. */
  scheme: 'http' | 'https';
  /** The port of an http(s) remote, when it names one. */
  port: string | null;
}

/** `git@host:owner/name.git`, `ssh://git@host/owner/name`, `https://host[:port]/owner/name.git`. */
export function parseRemote(url: string | null): RemoteParts | null {
  if (!url) return null;
  const web =
    /^(?<scheme>https?):\/\/(?:[^@/]+@)?(?<host>[^:/]+)(?::(?<port>\d+))?\/(?<path>.+?)(?:\.git)?\/?$/i.exec(
      url.trim(),
    )?.groups;
  if (web?.scheme && web.host && web.path) {
    return {
      scheme: web.scheme.toLowerCase() === 'http' ? 'http' : 'https',
      host: web.host.toLowerCase(),
      port: web.port ?? null,
      path: web.path,
    };
  }
  const other = /^(?:[a-z+]+:\/\/)?(?:[^@/]+@)?(?<host>[^:/]+)(?::\d+)?[:/](?<path>.+?)(?:\.git)?\/?$/i.exec(
    url.trim(),
  )?.groups;
  if (!other?.host || !other.path) return null;
  return { scheme: 'https', host: other.host.toLowerCase(), port: null, path: other.path };
}

/** The forge a host is, when its name says so (codeberg.org and hosts named gitea or forgejo are Gitea). */
export function forgeOfHost(host: string): ForgeKind | null {
  if (host.includes('github')) return 'github';
  if (host.includes('gitlab')) return 'gitlab';
  if (host.includes('gitea') || host.includes('forgejo') || host === 'codeberg.org') return 'gitea';
  return null;
}

function apiBase(forge: ForgeKind, r: RemoteParts): string {
  if (forge === 'github' && r.host === 'github.com') return 'https://api.github.com';
  const origin = `${r.scheme}://${r.host}${r.port ? `:${r.port}` : ''}`;
  if (forge === 'github') return `${origin}/api/v3`;
  if (forge === 'gitlab') return `${origin}/api/v4`;
  return `${origin}/api/v1`;
}

/**
 * The repository's forge location, or why there is none: a key in repos.yaml wins over what the
 * origin remote says, so a mirror, GitHub Enterprise or a test server can be named on purpose.
 */
export function locateForge(
  entry: { forge?: ForgeKind | undefined; project?: string | undefined; forge_url?: string | undefined },
  originUrl: string | null,
): { ok: true; location: ForgeLocation } | { ok: false; reason: string } {
  const remote = parseRemote(originUrl);
  const forge = entry.forge ?? (remote ? forgeOfHost(remote.host) : null);
  if (!forge)
    return {
      ok: false,
      reason: remote
        ? `the forge of origin (${remote.host}) is not known; set forge: github, gitlab or gitea in repos.yaml`
        : 'the repository has no origin remote and repos.yaml sets no forge; add an origin or set forge and project',
    };
  const project = entry.project ?? remote?.path ?? null;
  if (!project) return { ok: false, reason: `no project: set project in repos.yaml (the ${forge} path)` };
  if (forge !== 'gitlab' && project.split('/').length !== 2)
    return { ok: false, reason: `project ${project} is not owner/name` };
  const base = entry.forge_url ?? (remote ? apiBase(forge, remote) : null);
  if (!base) return { ok: false, reason: 'no forge_url in repos.yaml and no origin to derive it from' };
  return { ok: true, location: { forge, project, api_url: base.replace(/\/+$/, '') } };
}
