import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import type { ReposAnswer } from '../../../src/contract/repos.js';
import { allItems, get, post, type Item } from '../api.js';
import { Peek } from '../peek/peek.js';
import { useTheme } from '../settings/apply-theme.js';
import { Wizard } from '../wizard/wizard.js';
import { BulkBar } from './bulk.js';
import {
  groupOf,
  arrange,
  GROUP_BY,
  SORT_BY,
  SORT_LABEL,
  type GroupBy,
  type RowAction,
  type SortBy,
} from './groups.js';
import { Row } from './row.js';
import { useChainNodes } from './ticks.js';

type Entry =
  | { kind: 'header'; id: string; title: string; total: number }
  | { kind: 'row'; item: Item; group: string | null }
  | { kind: 'more'; hidden: number }
  | { kind: 'empty'; id: string };

const oneOf = <T extends string>(list: readonly T[], value: string | null, fallback: T): T =>
  (list as readonly string[]).includes(value ?? '') ? (value as T) : fallback;

const HEADER_PX = 44;
const ROW_PX = 58;

/** Filters live in the URL (`?q=&chain=&repo=&group=&sort=&done=all`) so a view can be shared and reloaded. */
function useFilters(defaultGroup: GroupBy) {
  const [params, setParams] = useSearchParams();
  const set = (key: string, value: string) =>
    setParams(
      (p) => {
        if (value) p.set(key, value);
        else p.delete(key);
        return p;
      },
      { replace: true },
    );
  return {
    q: params.get('q') ?? '',
    chain: params.get('chain') ?? '',
    repo: params.get('repo') ?? '',
    group: oneOf<GroupBy>(GROUP_BY, params.get('group'), defaultGroup),
    sort: oneOf<SortBy>(SORT_BY, params.get('sort'), 'attention'),
    allDone: params.get('done') === 'all',
    peek: params.get('peek'),
    set,
  };
}

export function Board({ archived = false }: { archived?: boolean }) {
  const navigate = useNavigate();
  const client = useQueryClient();
  // Settings › Appearance's board options: the grouping with no `group` in the URL, how many of
  // Done show before "show all", and whether a row opens in the side panel or the full page.
  const options = useTheme()?.board;
  const defaultGroup = options?.group_by ?? 'status';
  const f = useFilters(defaultGroup);
  const items = useQuery({
    queryKey: ['items', archived],
    queryFn: () => allItems(archived ? 'true' : 'false'),
  });
  const connected = useQuery({
    queryKey: ['repos'],
    queryFn: () => get<z.infer<typeof ReposAnswer>>('/api/repos'),
    enabled: !archived,
  });
  // Decided once, from the first answer: connecting the first repo must not take the wizard away.
  const [wizard, setWizard] = useState<boolean | null>(null);
  useEffect(() => {
    if (wizard === null && connected.data) setWizard(connected.data.repos.length === 0);
  }, [connected.data, wizard]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [active, setActive] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = window.setInterval(() => setNow(Date.now()), 30_000);
    return () => window.clearInterval(t);
  }, []);

  const all = items.data ?? [];
  const chains = useMemo(() => [...new Set(all.map((i) => i.chain))].sort(), [all]);
  const chainNodes = useChainNodes(chains);
  const repos = useMemo(() => [...new Set(all.map((i) => i.repo))].sort(), [all]);
  const shown = useMemo(() => {
    const q = f.q.trim().toLowerCase();
    return all.filter(
      (i) =>
        (!q || i.title.toLowerCase().includes(q) || i.id.startsWith(q)) &&
        (!f.chain || i.chain === f.chain) &&
        (!f.repo || i.repo === f.repo),
    );
  }, [all, f.q, f.chain, f.repo]);

  const entries = useMemo<Entry[]>(() => {
    if (archived) return shown.map((item) => ({ kind: 'row', item, group: null }));
    const out: Entry[] = [];
    for (const g of arrange(shown, f.group, f.sort, f.allDone, options?.show_done)) {
      out.push({ kind: 'header', id: g.id, title: g.title, total: g.total });
      if (g.items.length === 0) out.push({ kind: 'empty', id: g.id });
      for (const item of g.items) out.push({ kind: 'row', item, group: g.id });
      if (g.total > g.items.length) out.push({ kind: 'more', hidden: g.total - g.items.length });
    }
    return out;
  }, [shown, f.group, f.sort, f.allDone, options?.show_done, archived]);
  const rows = useMemo(() => entries.flatMap((e, i) => (e.kind === 'row' ? [i] : [])), [entries]);

  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => (entries[i]?.kind === 'row' ? ROW_PX : HEADER_PX),
    overscan: 12,
  });

  // A row opens in the side panel (its id in the URL); Ctrl/⌘ opens the full page in a new tab.
  const open = (item: Item, newTab: boolean) => {
    if (newTab) window.open(`/work-items/${item.id}`, '_blank', 'noopener');
    else if (options?.open_in === 'full') void navigate(`/work-items/${item.id}`);
    else f.set('peek', item.id);
  };
  const act = async (item: Item, action: RowAction | 'approve') => {
    if (action === 'approve' && item.current_node)
      await post(
        `/api/work-items/${item.id}/gates/${encodeURIComponent(item.current_node)}/approve`,
        item.gate_request !== null ? { request: item.gate_request } : {},
      );
    else if (action === 'resume') await post(`/api/work-items/${item.id}/resume`);
    else if (action === 'retry') await post(`/api/work-items/${item.id}/retry`);
    // A gate's document and a question are read on the full page; the rest fits the panel.
    else if (action === 'review' || action === 'answer') return void navigate(`/work-items/${item.id}`);
    else return open(item, false);
    await client.invalidateQueries({ queryKey: ['items'] });
  };
  const toggle = (item: Item) =>
    setSelected((s) => {
      const next = new Set(s);
      if (!next.delete(item.id)) next.add(item.id);
      return next;
    });

  const move = (delta: number) => {
    if (rows.length === 0) return;
    const at = Math.max(0, Math.min(rows.length - 1, active + delta));
    setActive(at);
    virtual.scrollToIndex(rows[at]!, { align: 'auto' });
    window.requestAnimationFrame(() =>
      scroller.current?.querySelector<HTMLElement>(`[data-index="${rows[at]}"] .row`)?.focus(),
    );
  };
  const onKey = (e: React.KeyboardEvent) => {
    if (e.target instanceof HTMLInputElement) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      move(e.key === 'ArrowDown' ? 1 : -1);
    } else if (e.key === 'Escape') setSelected(new Set());
  };
  const activeEntry = rows[active] === undefined ? undefined : entries[rows[active]];
  const activeId = activeEntry?.kind === 'row' ? activeEntry.item.id : undefined;
  const needing = useMemo(() => shown.filter((i) => groupOf(i) === 'needs').length, [shown]);

  if (wizard && connected.data) return <Wizard repos={connected.data} onSkip={() => setWizard(false)} />;
  return (
    <section className="page board" aria-label={archived ? 'Archived items' : 'Board'}>
      <header className="board-head">
        <h1>
          {archived ? 'Archived' : 'Board'}
          {!archived && needing > 0 && <span className="count-needs">{needing} NEED YOU</span>}
        </h1>
        <div className="filters">
          <input
            id="board-filter"
            type="search"
            placeholder="Filter by title or id  ( / )"
            aria-label="Filter by title or id"
            value={f.q}
            onChange={(e) => f.set('q', e.target.value)}
          />
          <select aria-label="Chain" value={f.chain} onChange={(e) => f.set('chain', e.target.value)}>
            <option value="">All chains</option>
            {chains.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
          <select aria-label="Repository" value={f.repo} onChange={(e) => f.set('repo', e.target.value)}>
            <option value="">All repos</option>
            {repos.map((r) => (
              <option key={r} value={r}>
                {r.split('/').pop()}
              </option>
            ))}
          </select>
          <select
            aria-label="Group by"
            value={f.group}
            onChange={(e) => f.set('group', e.target.value === defaultGroup ? '' : e.target.value)}
          >
            <option value="status">Group by status</option>
            <option value="repo">Group by repo</option>
            <option value="chain">Group by chain</option>
          </select>
          <select
            aria-label="Sort"
            value={f.sort}
            onChange={(e) => f.set('sort', e.target.value === 'attention' ? '' : e.target.value)}
          >
            {SORT_BY.map((k) => (
              <option key={k} value={k}>
                {SORT_LABEL[k]}
              </option>
            ))}
          </select>
        </div>
      </header>
      <BulkBar ids={[...selected]} archived={archived} onDone={() => setSelected(new Set())} />
      {items.isError && <p role="alert">The board could not load the items: {items.error.message}</p>}
      {items.isPending && <p className="muted">Loading…</p>}
      <div className={`board-body${f.peek ? ' with-peek' : ''}`}>
        <div className="board-list" ref={scroller} role="grid" aria-label="Work items" onKeyDown={onKey}>
          <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
            {virtual.getVirtualItems().map((v) => {
              const e = entries[v.index]!;
              return (
                <div
                  key={v.key}
                  data-index={v.index}
                  ref={virtual.measureElement}
                  className="vrow"
                  data-group={e.kind === 'row' ? (e.group ?? undefined) : undefined}
                  style={{ transform: `translateY(${v.start}px)` }}
                >
                  {e.kind === 'header' && (
                    <h2 className={`group group-${e.id}`} data-group={e.id}>
                      {e.title} <span className="muted">{e.total}</span>
                    </h2>
                  )}
                  {e.kind === 'empty' && <p className="muted small empty">Nothing here.</p>}
                  {e.kind === 'more' && (
                    <button type="button" className="link" onClick={() => f.set('done', 'all')}>
                      show all ({e.hidden} more)
                    </button>
                  )}
                  {e.kind === 'row' && (
                    <Row
                      item={e.item}
                      now={now}
                      active={e.item.id === activeId}
                      selected={selected.has(e.item.id)}
                      onOpen={open}
                      onAction={(i, a) => void act(i, a)}
                      onToggle={toggle}
                      nodes={chainNodes.get(e.item.chain)}
                    />
                  )}
                </div>
              );
            })}
          </div>
        </div>
        {f.peek && <Peek key={f.peek} id={f.peek} onClose={() => f.set('peek', '')} />}
      </div>
    </section>
  );
}
