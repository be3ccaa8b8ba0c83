import { Link } from 'react-router';
import type { Item } from '../api.js';

type Linked = NonNullable<Item['dependencies']>[number];

function Chips({ items, label }: { items: readonly Linked[]; label: string }) {
  return (
    <ul className="deps-list" aria-label={label}>
      {items.map((d) => (
        <li key={d.id}>
          <Link className={`dep dep-${d.status}`} to={`/work-items/${d.id}`} title={d.id}>
            {d.title}
          </Link>{' '}
          <span className={`status status-${d.status === 'completed' ? 'done' : d.status}`}>{d.status}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * What an item comes after and what comes after it, drawn as arrows through the item: the peek and
 * the item page show it whenever it has either. Each end links to that item.
 */
export function DependencyArrows({ item }: { item: Item }) {
  const before = item.dependencies ?? [];
  const after = item.dependents ?? [];
  if (before.length === 0 && after.length === 0) return null;
  return (
    <div className="deps" role="group" aria-label="Dependencies">
      {before.length > 0 && (
        <>
          <Chips items={before} label="Comes after" />
          <span className="deps-arrow" aria-hidden>
            →
          </span>
        </>
      )}
      <span className="dep dep-self">this item</span>
      {after.length > 0 && (
        <>
          <span className="deps-arrow" aria-hidden>
            →
          </span>
          <Chips items={after} label="Comes before" />
        </>
      )}
    </div>
  );
}
