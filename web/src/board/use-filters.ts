import { useSearchParams } from 'react-router';
import { GROUP_BY, SORT_BY, type GroupBy, type SortBy } from './groups.js';

const oneOf = <T extends string>(list: readonly T[], value: string | null, fallback: T): T =>
  (list as readonly string[]).includes(value ?? '') ? (value as T) : fallback;

/** Filters live in the URL (`?q=&chain=&repo=&group=&sort=&done=all`) so a view can be shared and reloaded. */
export function useFilters(defaultGroup: GroupBy) {
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

export type Filters = ReturnType<typeof useFilters>;
