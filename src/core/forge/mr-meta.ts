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

/** A forge issue id, `group/project#12`, as its project and number. */
export function forgeIssueRef(id: string): { project: string; number: number } | null {
  const m = /^(.+)#(\d+)$/.exec(id);
  return m?.[1] && m[2] ? { project: m[1], number: Number(m[2]) } : null;
}

/**
 * The lines a merge request's description carries for the issues its item implements: `Closes #12`
 * for an issue of the merge request's own project (the forge closes it as the merge lands),
 * `Fixes ENG-42` for Linear (its forge integration does the same), the key for Jira (linked in its
 * development panel). Beads and other projects' issues get none.
 */
export function closingLines(
  issues: readonly { tracker: string; id: string }[],
  forge: { forge: string; project: string },
): string[] {
  return issues.flatMap((i) => {
    if (i.tracker === forge.forge) {
      const ref = forgeIssueRef(i.id);
      return ref && ref.project === forge.project ? [`Closes #${ref.number}`] : [];
    }
    if (i.tracker === 'linear') return [`Fixes ${i.id}`];
    if (i.tracker === 'jira') return [`Jira: ${i.id}`];
    return [];
  });
}

/** The description with the closing lines it does not already carry, after a blank line. */
export function withClosingLines(body: string, lines: readonly string[]): string {
  // Whole lines: `Closes #123` in the description is not `Closes #12`.
  const have = new Set(body.split('\n').map((l) => l.trim()));
  const missing = lines.filter((l) => !have.has(l));
  if (missing.length === 0) return body;
  return [body.trimEnd(), missing.join('\n')].filter(Boolean).join('\n\n');
}
