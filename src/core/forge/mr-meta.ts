/**
 * The merge request's title and description from the `mr_meta` document (skill mr-metadata): its
 * first `# ` heading is the title, everything after it the description. A document without a
 * heading gives its first line as the title; an empty one, the fallback (the item's title).
 */
export function readMrMeta(text: string | null, fallbackTitle: string): { title: string; body: string } {
  const lines = (text ?? '').replace(/\r\n/g, '\n').split('\n');
  const at = lines.findIndex((l) => /^#\s+\S/.test(l));
  if (at >= 0) {
    return {
      title: lines[at]!.replace(/^#\s+/, '').trim().slice(0, 250),
      body: lines
        .slice(at + 1)
        .join('\n')
        .trim(),
    };
  }
  const first = lines.findIndex((l) => l.trim() !== '');
  if (first < 0) return { title: fallbackTitle, body: '' };
  return {
    title: lines[first]!.trim().slice(0, 250),
    body: lines
      .slice(first + 1)
      .join('\n')
      .trim(),
  };
}
