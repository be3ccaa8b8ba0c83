import type { KeyboardEvent, MouseEvent } from 'react';
import type { Item } from '../api.js';
import { StartButton } from '../item/draft/start-ask.js';
import { Ticks } from './ticks.js';
import { actionLabel, actionOf, age, reasonOf, type RowAction } from './groups.js';

const STATUS_LABEL: Record<Item['display_status'], string> = {
  paused: 'paused',
  blocked: 'blocked',
  queued: 'queued',
  running: 'running',
  waiting: 'waiting on the forge',
  rate_limited: 'rate limited',
  needs_you: 'needs you',
  done: 'done',
  cancelled: 'cancelled',
  abandoned: 'abandoned',
  archived: 'archived',
};

export interface RowProps {
  item: Item;
  now: number;
  active: boolean;
  selected: boolean;
  onOpen: (item: Item, newTab: boolean) => void;
  onAction: (item: Item, action: RowAction | 'approve') => void;
  onToggle: (item: Item) => void;
  /** The node ids of the item's chain, for its ticks (absent while they load). */
  nodes: readonly string[] | undefined;
}

const repoName = (path: string) => path.split('/').filter(Boolean).pop() ?? path;

/** One item: what it is, where, how old, why it waits, and the one thing to do about it. */
export function Row({ item, now, active, selected, onOpen, onAction, onToggle, nodes }: RowProps) {
  const action = actionOf(item);
  const reason = reasonOf(item);
  const open = (e: MouseEvent) => onOpen(item, e.metaKey || e.ctrlKey);
  const key = (e: KeyboardEvent) => {
    if (e.key === 'Enter') onOpen(item, e.metaKey || e.ctrlKey);
    if (e.key === ' ') {
      e.preventDefault();
      onToggle(item);
    }
  };
  return (
    <div
      className={`row${active ? ' active' : ''}${selected ? ' selected' : ''}`}
      role="row"
      aria-selected={selected}
      data-item={item.id}
      tabIndex={active ? 0 : -1}
      onKeyDown={key}
    >
      <input
        type="checkbox"
        className="row-check"
        checked={selected}
        onChange={() => onToggle(item)}
        aria-label={`select ${item.title}`}
      />
      <button type="button" className="row-main" onClick={open}>
        <span className="row-title">{item.title}</span>
        <span className="row-meta muted small">
          {repoName(item.repo)} · <code>{item.id}</code> · {item.chain} · {age(item.created_at, now)}
        </span>
        <Ticks item={item} nodes={nodes} />
      </button>
      <span className={`status status-${item.display_status}`}>{STATUS_LABEL[item.display_status]}</span>
      <span className="row-reason">{reason ?? (item.current_node ? `at ${item.current_node}` : '')}</span>
      {action === 'review' && item.current_node && (
        // On a phone a gate can be approved from its card (the full page is a tap away for reading).
        <button
          type="button"
          className="action phone-only"
          onClick={() => onAction(item, 'approve')}
          aria-label={`Approve ${item.current_node} of ${item.title}`}
        >
          Approve
        </button>
      )}
      {action === 'resume' ? (
        <StartButton
          item={item}
          className={`action action-${action}`}
          go={() => onAction(item, action)}
          aria-label={`${actionLabel(item, action)} ${item.title}`}
        >
          {actionLabel(item, action)}
        </StartButton>
      ) : (
        <button
          type="button"
          className={`action action-${action}`}
          onClick={() => onAction(item, action)}
          aria-label={`${actionLabel(item, action)} ${item.title}`}
        >
          {actionLabel(item, action)}
        </button>
      )}
    </div>
  );
}
