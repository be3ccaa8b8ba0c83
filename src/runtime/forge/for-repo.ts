import type { RepoEntry } from '../../contract/config/repos.js';
import type { ForgeCheck } from '../../contract/repos.js';
import { locateForge, parseRemote, type ForgeLocation } from '../../core/forge/locate.js';
import { remoteUrl } from '../git/git.js';
import { forgeClient } from './client.js';
import { forgeToken, type TokenAnswer } from './token.js';
import type { ForgeClient } from './types.js';

export type RepoForge =
  | { ok: true; location: ForgeLocation; token: string; source: string }
  | { ok: false; stop: 'config' | 'infra'; reason: string };

/** The forge location as far as it resolves, and the token answer for it. */
async function resolveForge(
  repo: RepoEntry,
): Promise<{ ok: false; reason: string } | { ok: true; location: ForgeLocation; token: TokenAnswer }> {
  const origin = await remoteUrl(repo.path);
  const where = locateForge(repo, origin);
  if (!where.ok) return where;
  const loc = where.location;
  const token = await forgeToken(loc.forge, parseRemote(origin)?.host ?? new URL(loc.api_url).hostname);
  return { ok: true, location: loc, token };
}

/**
 * A repository's forge and the token to speak to it: where is a set-up question (`config`: name the
 * forge), the token one of the server's environment (`infra`: the reason says what to set).
 */
export async function repoForge(repo: RepoEntry): Promise<RepoForge> {
  const r = await resolveForge(repo);
  if (!r.ok) return { ok: false, stop: 'config', reason: r.reason };
  if (!r.token.ok) return { ok: false, stop: 'infra', reason: r.token.reason };
  return { ok: true, location: r.location, token: r.token.token, source: r.token.source };
}

export type RepoClient =
  { ok: true; client: ForgeClient; source: string } | { ok: false; stop: 'config' | 'infra'; reason: string };

/** The client of a repository's forge, every request bounded by `timeoutS` (forge_cli_timeout_s). */
export async function repoClient(repo: RepoEntry, timeoutS: number): Promise<RepoClient> {
  const forge = await repoForge(repo);
  if (!forge.ok) return forge;
  return {
    ok: true,
    client: forgeClient(forge.location, forge.token, timeoutS * 1000),
    source: forge.source,
  };
}

/** What `GET /api/repos/forge` answers: the location as far as it resolves, and the token's source. */
export async function checkForge(repo: RepoEntry): Promise<ForgeCheck> {
  const none = { path: repo.path, forge: null, project: null, api_url: null, token_source: null };
  const r = await resolveForge(repo);
  if (!r.ok) return { ...none, ready: false, problem: r.reason };
  const { forge, project, api_url } = r.location;
  const at = { ...none, forge, project, api_url };
  return r.token.ok
    ? { ...at, token_source: r.token.source, ready: true, problem: null }
    : { ...at, ready: false, problem: r.token.reason };
}
