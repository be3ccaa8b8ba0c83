import type { HarnessesFile } from '../../contract/config/harnesses.js';
import type { Problem } from '../../contract/problems.js';
import type { Across } from './across.js';
import { checkReferences } from './check-references.js';
import type { FileLoad } from './load-file.js';

/** harnesses.yaml: each profile's fallback entries name real harnesses and profiles. */
export function checkHarnessesAcross(harnesses: FileLoad<HarnessesFile>, across: Across): Problem[] {
  if (!harnesses.tree || !harnesses.model) return [];
  // Profiles take no steering, so no steering name is checked here.
  const known = { ...across.known, steering: [], steeringExists: () => true };
  return checkReferences(harnesses.tree, harnesses.file, known, false, 'profiles');
}
