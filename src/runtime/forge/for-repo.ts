import type { RepoEntry } from '../../contract/config/repos.js';
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
