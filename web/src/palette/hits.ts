import type { SearchHit, SearchKind } from '../../../src/contract/search.js';

/** Each kind's heading, in the order the palette lists them. */
export const KIND_HEADING: Record<SearchKind, string> = {
  item: 'Items found by their text',
  document: 'Documents',
  event: 'Events',
  thread: 'Review threads',
  attachment: 'Attachments',
  issue: 'Issues and beads',
  chain: 'Chains',
  library: 'Library',
};

const item = (id: string) => `/work-items/${encodeURIComponent(id)}`;

/**
 * Where a hit opens: what belongs to an item opens at that item (a thread on its review page); a
 * chain or library component in Templates. An issue auto-intake saw but never filed has no page.
 */
export function placeOf(hit: SearchHit): string | null {
  switch (hit.kind) {
    case 'chain':
      return `/templates/chains/${encodeURIComponent(hit.ref)}`;
    case 'library':
      return '/templates/library';
    case 'thread':
      return hit.work_item_id ? `${item(hit.work_item_id)}/review` : null;
    default:
      return hit.work_item_id ? item(hit.work_item_id) : null;
  }
}

/** The snippet cut at its « » marks, so the matched words can be shown as such. */
export function snippetParts(snippet: string): { text: string; hit: boolean }[] {
  const out: { text: string; hit: boolean }[] = [];
  const re = /«([^»]*)»/g;
  let at = 0;
  for (let m = re.exec(snippet); m; m = re.exec(snippet)) {
    if (m.index > at) out.push({ text: snippet.slice(at, m.index), hit: false });
    out.push({ text: m[1] ?? '', hit: true });
    at = m.index + m[0].length;
  }
  if (at < snippet.length) out.push({ text: snippet.slice(at), hit: false });
  return out;
}

/** Hits by kind, each kind in KIND_HEADING's order and best first within it. */
export function byKind(hits: readonly SearchHit[]): [SearchKind, SearchHit[]][] {
  const kinds = Object.keys(KIND_HEADING) as SearchKind[];
  return kinds.flatMap((k): [SearchKind, SearchHit[]][] => {
    const of = hits.filter((h) => h.kind === k);
    return of.length > 0 ? [[k, of]] : [];
  });
}

/** Whether the server would take `q`: it refuses (422) a query with no word in it. */
export const hasWord = (q: string) => /[\p{L}\p{N}_]/u.test(q);
