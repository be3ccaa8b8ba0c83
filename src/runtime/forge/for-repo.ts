import type { RepoEntry } from '../../contract/config/repos.js';
import type { ForgeCheck } from '../../contract/repos.js';
import { locateForge, parseRemote, type ForgeLocation } from '../../core/forge/locate.js';
import { remoteUrl } from '../git/git.js';
import { forgeToken } from './token.js';

export type RepoForge =
  | { ok: true; location: ForgeLocation; token: string; source: string }
  | { ok: false; stop: 'config' | 'infra'; reason: string };

/**
 * A repository's forge and the token to speak to it: where is a set-up question (`config`: name the
 * forge), the token one of the server's environment (`infra`: the reason says what to set).
 */
export async function repoForge(repo: RepoEntry): Promise<RepoForge> {
  const origin = await remoteUrl(repo.path);
  const where = locateForge(repo, origin);
  if (!where.ok) return { ok: false, stop: 'config', reason: where.reason };
  const loc = where.location;
  const host = parseRemote(origin)?.host ?? new URL(loc.api_url).hostname;
  const token = await forgeToken(loc.forge, host);
  if (!token.ok) return { ok: false, stop: 'infra', reason: token.reason };
  return { ok: true, location: loc, token: token.token, source: token.source };
}

/** What `GET /api/repos/forge` answers: the location as far as it resolves, and the token's source. */
export async function checkForge(repo: RepoEntry): Promise<ForgeCheck> {
  const none = { path: repo.path, forge: null, project: null, api_url: null, token_source: null };
  const origin = await remoteUrl(repo.path);
  const where = locateForge(repo, origin);
  if (!where.ok) return { ...none, ready: false, problem: where.reason };
  const loc = where.location;
  const at = { ...none, forge: loc.forge, project: loc.project, api_url: loc.api_url };
  const token = await forgeToken(loc.forge, parseRemote(origin)?.host ?? new URL(loc.api_url).hostname);
  return token.ok
    ? { ...at, token_source: token.source, ready: true, problem: null }
    : { ...at, ready: false, problem: token.reason };
}
