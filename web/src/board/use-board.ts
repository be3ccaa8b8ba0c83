import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { callRoute, routes, type Item } from '../api.js';
import { putItem, refreshItem } from '../item-cache.js';
import { itemsQuery, reposQuery } from '../queries.js';
import { useTheme } from '../settings/apply-theme.js';
import { boardEntries, distinct, filterItems } from './entries.js';
import { groupOf, type RowAction } from './groups.js';
import { useChainNodes } from './ticks.js';
import { useFilters } from './use-filters.js';

/**
 * Everything the board shows and does, without drawing any of it: the list with its filters (from
 * the URL), the rows it makes, the selection, the first-run wizard's decision, and a row's action.
 */
export function useBoard(archived: boolean) {
  const navigate = useNavigate();
  const client = useQueryClient();
  // Settings › Appearance's board options: the grouping with no `group` in the URL, how many of
  // Done show before "show all", and whether a row opens in the side panel or the full page.
  const options = useTheme()?.board;
  const defaultGroup = options?.group_by ?? 'status';
  const f = useFilters(defaultGroup);
  const items = useQuery(itemsQuery(archived));
  const connected = useQuery({ ...reposQuery(), enabled: !archived });
  // Decided once, from the first answer: connecting the first repo must not take the wizard away.
  // The archived list never offers it, though the board may have left the repositories cached.
  const [wizard, setWizard] = useState<boolean | null>(null);
  useEffect(() => {
    if (!archived && wizard === null && connected.data) setWizard(connected.data.repos.length === 0);
  }, [archived, connected.data, wizard]);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const now = useNow(30_000);

  const all = useMemo(() => items.data ?? [], [items.data]);
  const chains = useMemo(() => distinct(all, 'chain'), [all]);
  const chainNodes = useChainNodes(chains);
  const repos = useMemo(() => distinct(all, 'repo'), [all]);
  const shown = useMemo(
    () => filterItems(all, { q: f.q, chain: f.chain, repo: f.repo }),
    [all, f.q, f.chain, f.repo],
  );
  const entries = useMemo(
    () =>
      boardEntries(shown, archived, {
        group: f.group,
        sort: f.sort,
        allDone: f.allDone,
        showDone: options?.show_done,
      }),
    [shown, f.group, f.sort, f.allDone, options?.show_done, archived],
  );
  const needing = useMemo(() => shown.filter((i) => groupOf(i) === 'needs').length, [shown]);

  // A row opens in the side panel (its id in the URL); Ctrl/⌘ opens the full page in a new tab.
  const open = (item: Item, newTab: boolean) => {
    if (newTab) window.open(`/work-items/${item.id}`, '_blank', 'noopener');
    else if (options?.open_in === 'full') void navigate(`/work-items/${item.id}`);
    else f.set('peek', item.id);
  };
  const act = async (item: Item, action: RowAction | 'approve') => {
    const id = item.id;
    let moved: Item;
    if (action === 'approve' && item.current_node)
      moved = await callRoute(routes.approveGate, {
        params: { id, gate: item.current_node },
        body: item.gate_request !== null ? { request: item.gate_request } : {},
      });
    else if (action === 'resume') moved = await callRoute(routes.resumeItem, { params: { id } });
    else if (action === 'retry') moved = await callRoute(routes.retryItem, { params: { id } });
    else if (action === 'unblock') {
      // The answer says what was dropped; the item as it now is (started, most likely) is read.
      await callRoute(routes.unblockItem, { params: { id } });
      return refreshItem(client, id);
    }
    // A gate's document and a question are read on the full page; the rest fits the panel.
    else if (action === 'review' || action === 'answer') return void navigate(`/work-items/${id}`);
    else return open(item, false);
    // The move answers the item as it now is: put in place, the list is not read again.
    await putItem(client, moved);
  };
  const toggle = (item: Item) =>
    setSelected((s) => {
      const next = new Set(s);
      if (!next.delete(item.id)) next.add(item.id);
      return next;
    });

  return {
    filters: f,
    defaultGroup,
    items,
    connected,
    wizard: wizard === true && connected.data ? connected.data : null,
    skipWizard: () => setWizard(false),
    chains,
    repos,
    chainNodes,
    entries,
    needing,
    now,
    selected,
    clearSelection: () => setSelected(new Set()),
    toggle,
    open,
    act,
  };
}

export type BoardState = ReturnType<typeof useBoard>;

/** The time, ticking every `ms`: the rows' ages follow it. */
function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = window.setInterval(() => setNow(Date.now()), ms);
    return () => window.clearInterval(t);
  }, [ms]);
  return now;
}
