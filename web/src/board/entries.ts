import type { Item } from '../api.js';
import { arrange, type GroupBy, type SortBy } from './groups.js';

/*
 * The board's rows as the list draws them: a header per group, its rows, "show all" under a Done
 * cut short, "Nothing here." under an empty group. Pure, so the filters and grouping are tested.
 */

export type Entry =
  | { kind: 'header'; id: string; title: string; total: number }
  | { kind: 'row'; item: Item; group: string | null }
  | { kind: 'more'; hidden: number }
  | { kind: 'empty'; id: string };

/** The filter box and the two selectors: a title's words or the start of an id, a chain, a repository. */
export interface ItemFilter {
  q: string;
  chain: string;
  repo: string;
}

export function filterItems(all: readonly Item[], f: ItemFilter): Item[] {
  const q = f.q.trim().toLowerCase();
  return all.filter(
    (i) =>
      (!q || i.title.toLowerCase().includes(q) || i.id.startsWith(q)) &&
      (!f.chain || i.chain === f.chain) &&
      (!f.repo || i.repo === f.repo),
  );
}

export interface Arrangement {
  group: GroupBy;
  sort: SortBy;
  allDone: boolean;
  /** How many of Done show before "show all" (Settings › Appearance); the default when undefined. */
  showDone: number | undefined;
}

/** The entries of the list: the archived list is flat, the board grouped as the controls ask. */
export function boardEntries(shown: readonly Item[], archived: boolean, a: Arrangement): Entry[] {
  if (archived) return shown.map((item) => ({ kind: 'row', item, group: null }));
  const out: Entry[] = [];
  for (const g of arrange(shown, a.group, a.sort, a.allDone, a.showDone)) {
    out.push({ kind: 'header', id: g.id, title: g.title, total: g.total });
    if (g.items.length === 0) out.push({ kind: 'empty', id: g.id });
    for (const item of g.items) out.push({ kind: 'row', item, group: g.id });
    if (g.total > g.items.length) out.push({ kind: 'more', hidden: g.total - g.items.length });
  }
  return out;
}

/** The distinct values of one field, sorted: what the chain and repository selectors offer. */
export const distinct = (items: readonly Item[], field: 'chain' | 'repo'): string[] =>
  [...new Set(items.map((i) => i[field]))].sort();
