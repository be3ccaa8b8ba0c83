import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { Item } from '../api.js';
import type { Entry } from './entries.js';
import type { RowAction } from './groups.js';
import { Row } from './row.js';

const HEADER_PX = 44;
const ROW_PX = 58;

export interface BoardListProps {
  entries: readonly Entry[];
  now: number;
  selected: ReadonlySet<string>;
  chainNodes: ReadonlyMap<string, string[]>;
  onOpen: (item: Item, newTab: boolean) => void;
  onAction: (item: Item, action: RowAction | 'approve') => void;
  onToggle: (item: Item) => void;
  onShowAllDone: () => void;
  onClearSelection: () => void;
}

/**
 * The list, virtualised: only the rows on screen (and a few around them) exist in the page. ↑/↓
 * move between rows, Esc clears the selection.
 */
export function BoardList(p: BoardListProps) {
  const { entries } = p;
  const rows = useMemo(() => entries.flatMap((e, i) => (e.kind === 'row' ? [i] : [])), [entries]);
  const [active, setActive] = useState(0);
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => (entries[i]?.kind === 'row' ? ROW_PX : HEADER_PX),
    overscan: 12,
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
  const onKey = (e: KeyboardEvent) => {
    if (e.target instanceof HTMLInputElement) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      move(e.key === 'ArrowDown' ? 1 : -1);
    } else if (e.key === 'Escape') p.onClearSelection();
  };
  const activeEntry = rows[active] === undefined ? undefined : entries[rows[active]];
  const activeId = activeEntry?.kind === 'row' ? activeEntry.item.id : undefined;

  return (
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
                <button type="button" className="link" onClick={p.onShowAllDone}>
                  show all ({e.hidden} more)
                </button>
              )}
              {e.kind === 'row' && (
                <Row
                  item={e.item}
                  now={p.now}
                  active={e.item.id === activeId}
                  selected={p.selected.has(e.item.id)}
                  onOpen={p.onOpen}
                  onAction={p.onAction}
                  onToggle={p.onToggle}
                  nodes={p.chainNodes.get(e.item.chain)}
                />
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
