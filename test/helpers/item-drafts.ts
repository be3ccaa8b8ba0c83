import { join } from 'node:path';
import type { ChainContext } from '../../src/core/chain/load-chain.js';
import type { ResolvedChain } from '../../src/core/chain/model.js';
import { validateConfigSet } from '../../src/core/config/validate-set.js';
import { readConfigDir } from '../../src/runtime/config/config-dir.js';

/*
 * The seeded config for the item-draft tests: the `default` chain as an item freezes it, and the
 * seeded library to build added nodes from, with one library step (`review_step`) added since the
 * seeded library has none.
 */

const LIBRARY_STEP = `steps:
  review_step:
    tasks:
      - id: code_review
        extends: code_review
`;

const repoRoot = join(import.meta.dirname, '..', '..');

export function seededDraftWorld(): { chain: ResolvedChain; library: ChainContext } {
  const texts = readConfigDir(join(repoRoot, 'defaults', 'config'), null).texts;
  const lib = texts.library ?? '';
  if (!lib.includes('\nsteps: {}\n')) throw new Error('the seeded library.yaml no longer has `steps: {}`');
  const set = validateConfigSet({ ...texts, library: lib.replace('\nsteps: {}\n', `\n${LIBRARY_STEP}`) });
  const chain = set.chains.default?.resolved;
  if (!chain) throw new Error('the seeded default chain does not resolve');
  return { chain, library: { library: set.library.index, resolver: set.library.resolver } };
}
