import { createHash } from 'node:crypto';

/** A strong entity tag of a file's text (a missing file is the empty text). */
export function etagOf(text: string | null): string {
  return `"${createHash('sha256')
    .update(text ?? '')
    .digest('hex')}"`;
}

/** `If-Match`: `*`, or a list of entity tags; a weak tag never matches (RFC 9110, 13.1.1). */
export function ifMatches(header: string, etag: string): boolean {
  const tags = header.split(',').map((t) => t.trim());
  return tags.includes('*') || tags.includes(etag);
}
