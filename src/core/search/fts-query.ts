/**
 * A person's words as an FTS5 query: every word must appear (implicit AND), each quoted so FTS5's
 * own syntax (`OR`, `NEAR`, `-`, `:`, `*`) in what they typed is plain text, and the last word a
 * prefix too, so a query typed as you go finds as you type. Null when nothing is a word.
 */
export function ftsQuery(q: string): string | null {
  const words = q.match(/[\p{L}\p{N}_]+/gu);
  if (!words || words.length === 0) return null;
  const quoted = words.slice(0, 32).map((w) => `"${w}"`);
  quoted[quoted.length - 1] = `${quoted[quoted.length - 1]}*`;
  return quoted.join(' ');
}
