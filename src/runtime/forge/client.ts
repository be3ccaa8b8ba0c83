import type { ForgeLocation } from '../../core/forge/locate.js';
import { GiteaClient } from './gitea.js';
import { GitHubClient } from './github.js';
import { GitLabClient } from './gitlab.js';
import type { ForgeClient } from './types.js';

/** The client of a repository's forge; every request is bounded by `timeoutMs` (forge_cli_timeout_s). */
export function forgeClient(location: ForgeLocation, token: string, timeoutMs: number): ForgeClient {
  switch (location.forge) {
    case 'github':
      return new GitHubClient(location, token, timeoutMs);
    case 'gitlab':
      return new GitLabClient(location, token, timeoutMs);
    case 'gitea':
      return new GiteaClient(location, token, timeoutMs);
  }
}
