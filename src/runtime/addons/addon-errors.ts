import type { AddonProblem } from '../../contract/addon-review.js';
import type { AddonsFile } from '../../contract/addons.js';
import { JigError } from '../../contract/errors.js';

/** `file:line: message`, as refusals and skip reasons name a problem. */
export function problemLine(p: AddonProblem): string {
  return `${p.file}${p.line === null ? '' : `:${p.line}`}: ${p.message}`;
}

export function unknownCollection(file: AddonsFile, name: string): JigError {
  return new JigError('addon_collection_unknown', {
    name,
    known: Object.keys(file.collections).join(', ') || 'none',
  });
}
