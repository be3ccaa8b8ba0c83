import type { HarnessesFile } from '../../contract/config/harnesses.js';
import type { PolicyFile } from '../../contract/config/policy.js';
import type { ReposFile } from '../../contract/config/repos.js';
import type { Problem } from '../../contract/problems.js';
import type { ChainLoad } from '../chain/load-chain.js';
import type { Known } from './check-references.js';

/**
 * What the checks across files read of the whole set, built once by `validateConfigSet` so each
 * file's checks see the same names and models (null where that file does not load).
 */
export interface Across {
  /** Harness, profile and steering names, as `checkReferences` takes them. */
  known: Known;
  /** Ids of the chain files, for the did-you-mean of a chain name. */
  chainIds: string[];
  /** Whether a chain name resolves: a chain file, or an add-on chain. */
  chainExists: (name: string) => boolean;
  chains: ChainLoad[];
  harnesses: HarnessesFile | null;
  policy: PolicyFile | null;
  repos: ReposFile | null;
  /** Provider ids whose CLI tells no usage (`usage_reported: none`): dollar caps over them need a bound. */
  unmetered: ReadonlySet<string>;
}

/** What one file's checks across files found, added to that file's own. */
export interface Found {
  problems: Problem[];
  warnings: Problem[];
}
