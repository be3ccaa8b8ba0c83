import { SORT_BY, SORT_LABEL, type GroupBy } from './groups.js';
import type { Filters } from './use-filters.js';

/** The filter box (`/` focuses it), the chain and repository selectors, Group by and Sort. */
export function BoardFilters({
  f,
  defaultGroup,
  chains,
  repos,
}: {
  f: Filters;
  defaultGroup: GroupBy;
  chains: readonly string[];
  repos: readonly string[];
}) {
  return (
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
  );
}
