import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { JigError } from '../../contract/errors.js';
import type { AttachmentInput, AttachmentKind } from '../../contract/items.js';
import { writeFileAtomic } from '../home/atomic-write.js';

export interface PreparedAttachment {
  kind: AttachmentKind;
  source: 'text' | 'path';
  path: string | null;
  text: string;
}

const MAX_BYTES = 1_000_000;

/**
 * Reads an attachment at intake. A path is taken relative to the repository and must stay inside
 * it (links included): a request can never make Jig read a file outside the repo.
 */
export function prepareAttachment(
  kind: AttachmentKind,
  input: AttachmentInput,
  repoRoot: string,
): PreparedAttachment {
  if ('text' in input) return { kind, source: 'text', path: null, text: input.text };
  const bad = (reason: string): JigError => new JigError('attachment_unreadable', { kind, reason });
  if (isAbsolute(input.path) || input.path.split(/[\\/]/).includes('..')) {
    throw bad(`path ${input.path} must be relative to the repository and must not contain ..`);
  }
  let real: string;
  try {
    real = realpathSync(resolve(repoRoot, input.path));
  } catch {
    throw bad(`${input.path} does not exist in the repository`);
  }
  const root = realpathSync(repoRoot);
  if (real !== root && !real.startsWith(root + sep)) throw bad(`${input.path} leads outside the repository`);
  const st = statSync(real);
  if (!st.isFile()) throw bad(`${input.path} is not a file`);
  if (st.size > MAX_BYTES) throw bad(`${input.path} is larger than ${MAX_BYTES} bytes`);
  const buf = readFileSync(real);
  const text = buf.toString('utf8');
  if (text.includes('\u0000') || Buffer.from(text, 'utf8').length !== buf.length) {
    throw bad(`${input.path} is not UTF-8 text`);
  }
  return { kind, source: 'path', path: relative(root, real), text };
}

export function attachmentFile(attachmentsDir: string, itemId: string, kind: AttachmentKind): string {
  return join(attachmentsDir, itemId, `${kind}.md`);
}

/** Stores the text under run/attachments/<item>/<kind>.md and answers the metadata kept on the item. */
export function storeAttachment(attachmentsDir: string, itemId: string, a: PreparedAttachment) {
  mkdirSync(join(attachmentsDir, itemId), { recursive: true, mode: 0o700 });
  writeFileAtomic(attachmentFile(attachmentsDir, itemId, a.kind), a.text, 0o600);
  return {
    kind: a.kind,
    source: a.source,
    path: a.path,
    bytes: Buffer.byteLength(a.text, 'utf8'),
    sha256: createHash('sha256').update(a.text).digest('hex'),
  };
}
