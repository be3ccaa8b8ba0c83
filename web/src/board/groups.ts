import type { Item } from '../api.js';

/*
 * The board's four groups, always in this order and with these names (kraft-notes §7): what needs
 * a person, what runs, what has not started, what ended. Pure, so the rules are unit-tested.
 */

export const GROUPS = ['needs', 'running', 'not_started', 'done'] as const;
export type GroupId = (typeof GROUPS)[number];

export const GROUP_TITLE: Record<GroupId, string> = {
  needs: 'Needs you',
  running: 'Running',
  not_started: 'Not started',
  done: 'Done',
};

/** Done shows its newest few until "show all". */
export const DONE_SHOWN = 5;

export function groupOf(item: Item): GroupId {
  switch (item.display_status) {
    case 'needs_you':
      return 'needs';
    case 'running':
    case 'queued':
    case 'waiting':
    case 'rate_limited':
      return 'running';
    case 'blocked':
      // It waits on other items, not on a person or a slot: new work that cannot begin yet.
      return 'not_started';
    case 'paused':
      // Paused after it started, it waits for a person to resume it; never started, it is new work.
      return item.started_at === null ? 'not_started' : 'needs';
    case 'done':
    case 'cancelled':
    case 'abandoned':
    case 'archived':
      return 'done';
  }
}

/** Why an item needs a person, as the row says it: "approve spec_approval", "failed at build". */
export function reasonOf(item: Item): string | null {
  const node = item.current_node ?? 'the start';
  if (item.status === 'paused') return item.started_at === null ? null : `paused at ${node}`;
  if (item.status === 'blocked') return blockedReason(item);
  if (item.status !== 'stopped' || !item.stop) return null;
  switch (item.stop.kind) {
    case 'gate':
      return `approve ${node}`;
    case 'question':
      return `answer a question at ${node}`;
    case 'budget':
      return 'over its budget';
    case 'cap':
      return `a cap was reached at ${node}`;
    case 'failed':
      return `failed at ${node}`;
    case 'rate_limit':
      return 'waits for a rate limit';
    case 'wait':
      return `a forge wait timed out at ${node}`;
    case 'mr_closed':
      return 'its merge request was closed';
    case 'sandbox_oom_killed':
      return `out of memory in its sandbox at ${node}`;
    default:
      return `${item.stop.kind.replace(/_/g, ' ')} at ${node}`;
  }
}

/** What a blocked item waits on, by title: "waits on Add the table", or the one that never completes. */
function blockedReason(item: Item): string {
  const waits = item.waiting_on ?? [];
  const dead = waits.filter((d) => d.status === 'cancelled' || d.status === 'abandoned');
  const first = dead[0];
  if (first)
    return `${first.title} was ${first.status}${dead.length > 1 ? ` (and ${dead.length - 1} more)` : ''}`;
  if (waits.length === 0) return 'waits on other items';
  const names = waits.slice(0, 2).map((d) => d.title);
  return `waits on ${names.join(', ')}${waits.length > 2 ? ` and ${waits.length - 2} more` : ''}`;
}

/** The one action a row offers, by what the item waits for. */
export type RowAction = 'review' | 'answer' | 'raise_cap' | 'retry' | 'resume' | 'unblock' | 'open';

export function actionOf(item: Item): RowAction {
  if (item.status === 'paused') return 'resume';
  if (item.status === 'blocked') return 'unblock';
  if (item.status !== 'stopped' || !item.stop) return 'open';
  switch (item.stop.kind) {
    case 'gate':
      return 'review';
    case 'question':
      return 'answer';
    case 'budget':
    case 'cap':
      return 'raise_cap';
    case 'rate_limit':
      return 'open';
    default:
      return 'retry';
  }
}

export const ACTION_LABEL: Record<RowAction, string> = {
  review: 'Review',
  answer: 'Answer',
  raise_cap: 'Raise cap',
  retry: 'Retry…',
  resume: 'Resume',
  unblock: 'Unblock',
  open: 'Open',
};

/**
 * The row's button: the same word as the peek and the item page use for the same move, so a paused
 * item never started says Start and only one that has run says Resume.
 */
export function actionLabel(item: Item, action: RowAction): string {
  return action === 'resume' && item.started_at === null ? 'Start' : ACTION_LABEL[action];
}

export interface Grouped {
  id: string;
  title: string;
  items: Item[];
  /** How many the group holds before Done is cut to its newest few. */
  total: number;
}

/** Needs-you first by how long they waited, running and new by recency, done by when they ended. */
export function groupItems(
  items: readonly Item[],
  showAllDone: boolean,
  doneShown: number = DONE_SHOWN,
): Grouped[] {
  const by = new Map<GroupId, Item[]>(GROUPS.map((g) => [g, []]));
  for (const item of items) by.get(groupOf(item))!.push(item);
  const newest = (a: string | null, b: string | null) => (b ?? '').localeCompare(a ?? '');
  return GROUPS.map((id) => {
    const list = by.get(id)!;
    if (id === 'needs') list.sort((a, b) => a.updated_at.localeCompare(b.updated_at));
    else if (id === 'done') list.sort((a, b) => newest(a.ended_at, b.ended_at));
    else list.sort((a, b) => newest(a.updated_at, b.updated_at));
    const shown = id === 'done' && !showAllDone ? list.slice(0, doneShown) : list;
    return { id, title: GROUP_TITLE[id], items: shown, total: list.length };
  });
}

/** "3 min", "2 h", "5 d": how long since `iso`, for a row's age. */
export function age(iso: string, now: number): string {
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  if (s < 86_400) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86_400)} d`;
}

export const GROUP_BY = ['status', 'repo', 'chain'] as const;
export type GroupBy = (typeof GROUP_BY)[number];
export const SORT_BY = ['attention', 'updated', 'created', 'title'] as const;
export type SortBy = (typeof SORT_BY)[number];
export const SORT_LABEL: Record<SortBy, string> = {
  attention: 'Needs attention',
  updated: 'Recently updated',
  created: 'Created',
  title: 'Title',
};

const SORTS: Record<Exclude<SortBy, 'attention'>, (a: Item, b: Item) => number> = {
  updated: (a, b) => b.updated_at.localeCompare(a.updated_at),
  created: (a, b) => b.created_at.localeCompare(a.created_at),
  title: (a, b) => a.title.localeCompare(b.title),
};

/** Rank for "needs attention": what waits for a person first, then what runs, new, ended. */
const RANK: Record<GroupId, number> = { needs: 0, running: 1, not_started: 2, done: 3 };

/**
 * The board as the controls ask: by status (the four groups) or by repo or chain (one group each,
 * by name), each sorted. "Needs attention" keeps the status groups' own order inside a group.
 */
export function arrange(
  items: readonly Item[],
  by: GroupBy,
  sort: SortBy,
  showAllDone: boolean,
  doneShown: number = DONE_SHOWN,
): Grouped[] {
  if (by === 'status') {
    const groups = groupItems(items, showAllDone, doneShown);
    if (sort === 'attention') return groups;
    return groups.map((g) => ({ ...g, items: [...g.items].sort(SORTS[sort]) }));
  }
  const key = (i: Item) => (by === 'repo' ? i.repo : i.chain);
  const names = [...new Set(items.map(key))].sort();
  return names.map((name) => {
    const list = items.filter((i) => key(i) === name);
    list.sort(
      sort === 'attention'
        ? (a, b) => RANK[groupOf(a)] - RANK[groupOf(b)] || a.updated_at.localeCompare(b.updated_at)
        : SORTS[sort],
    );
    const title = by === 'repo' ? (name.split('/').filter(Boolean).pop() ?? name) : name;
    return { id: `${by}:${name}`, title, items: list, total: list.length };
  });
}
