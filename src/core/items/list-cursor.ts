/**
 * The item list's page cursor: the last item's creation time and id, opaque to clients. Only a
 * time this server wrote (`toISOString`) is taken back: it orders the same as text on SQLite and
 * as a timestamptz on PostgreSQL, where anything else would not even parse.
 */
export interface ListCursor {
  created_at: string;
  id: string;
}

export const encodeCursor = (c: ListCursor): string =>
  Buffer.from(`${c.created_at}|${c.id}`).toString('base64url');

/** The cursor, or null for a text this server did not give. */
export function decodeCursor(text: string): ListCursor | null {
  const [created_at, id] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  if (!created_at || !id) return null;
  const t = Date.parse(created_at);
  if (Number.isNaN(t) || new Date(t).toISOString() !== created_at) return null;
  return { created_at, id };
}
