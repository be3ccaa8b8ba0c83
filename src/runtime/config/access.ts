import { join } from 'node:path';
import { AccessFile } from '../../contract/config/access.js';
import { formatProblem } from '../../contract/problems.js';
import { readYamlMapping } from './yaml-file.js';

export interface AccessRead {
  access: AccessFile;
  /** Why the file was not used, when it was not. */
  error: string | null;
}

/** Reads access.yaml; a file that does not load leaves the safe defaults (loopback) in force. */
export function readAccess(configDir: string): AccessRead {
  const read = readYamlMapping(join(configDir, 'access.yaml'), 'access.yaml');
  if (!read.ok) {
    return {
      access: AccessFile.parse({}),
      error: read.missing ? null : read.problems.map(formatProblem).join('; '),
    };
  }
  const parsed = AccessFile.safeParse(read.doc.toJS() ?? {});
  if (!parsed.success) {
    const msg = parsed.error.issues
      .map((i) => `access.yaml: ${i.path.join('.') || '(top)'}: ${i.message}`)
      .join('; ');
    return { access: AccessFile.parse({}), error: msg };
  }
  return { access: parsed.data, error: null };
}
