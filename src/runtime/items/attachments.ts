import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { JigError } from '../../contract/errors.js';
import type { AttachmentInput, AttachmentKind } from '../../contract/items.js';
import { readInside, type Refused } from '../fs/safe-read.js';
import { writeFileAtomic } from '../home/atomic-write.js';
import type { Kysely } from 'kysely';
import { attachmentTextOf } from '../../store/attachment-texts.js';
import type { Database } from '../../store/schema.js';

export interface PreparedAttachment {
  kind: AttachmentKind;
  source: 'text' | 'path';
  path: string | null;
  text: string;
}

const MAX_BYTES = 1_000_000;

function why(path: string, r: Refused): string {
  switch (r.reason) {
    case 'bad_path':
      return `path ${path} must be relative to the repository and must not contain ..`;
    case 'missing':
      return `${path} does not exist in the repository`;
    case 'link_outside':
    case 'outside_root':
      return `${path} leads outside the repository`;
    case 'not_regular':
      return r.detail.startsWith('is a directory') ? `${path} is not a file` : `${path} ${r.detail}`;
    default:
      return `${path} ${r.detail}`;
  }
}

/**
 * Reads an attachment at intake. A path is taken relative to the repository and must stay inside
 * it: the file is opened once and the opened file is checked, so neither a link nor a folder
 * swapped for one while Jig reads can make it read a file outside the repo. Only a regular file
 * with one link, outside `.git`, is read.
 */
export function prepareAttachment(
  kind: AttachmentKind,
  input: AttachmentInput,
  repoRoot: string,
): PreparedAttachment {
  if ('text' in input) return { kind, source: 'text', path: null, text: input.text };
  const bad = (reason: string): JigError => new JigError('attachment_unreadable', { kind, reason });
  const r = readInside(repoRoot, input.path, {
    maxBytes: MAX_BYTES,
    refuseHardLinks: true,
    refuseGitInternals: true,
  });
  if (!r.ok) throw bad(why(input.path, r));
  const text = r.bytes.toString('utf8');
  if (text.includes('\u0000') || Buffer.byteLength(text, 'utf8') !== r.bytes.length) {
    throw bad(`${input.path} is not UTF-8 text`);
  }
  return { kind, source: 'path', path: r.path, text };
}

/**
 * The text stored for an item's attachment, or null when there is none. The folder is Jig's, but
 * a task runs with the user's rights and could put a FIFO or a link where the file was: it is read
 * only as a regular file inside the attachments folder, never more than an attachment may hold.
 */
export function readStoredAttachment(
  attachmentsDir: string,
  itemId: string,
  kind: AttachmentKind,
): string | null {
  const read = readInside(attachmentsDir, `${itemId}/${kind}.md`, {
    maxBytes: MAX_BYTES,
    rootName: 'attachments folder',
  });
  return read.ok ? read.bytes.toString('utf8') : null;
}

/**
 * The attachment's text: the store's (readable from every machine sharing it, docs/scale-out.md),
 * else, for an item filed before the store kept the texts, this machine's attachments folder.
 */
export async function attachmentText(
  db: Kysely<Database>,
  attachmentsDir: string,
  itemId: string,
  kind: AttachmentKind,
): Promise<string | null> {
  return (await attachmentTextOf(db, itemId, kind)) ?? readStoredAttachment(attachmentsDir, itemId, kind);
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
