import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { Item } from '../api.js';
import { itemsQuery } from '../queries.js';

const ENDED = new Set(['completed', 'cancelled', 'abandoned']);
const SHOWN = 6;

/**
 * "Comes after": the items a new one waits for, picked by title from the board's own list (items
 * that have not ended; one that completed is nothing to wait for). Started before they complete,
 * the new item is blocked and starts by itself when they have.
 */
export function AfterPicker({ value, onChange }: { value: string[]; onChange: (ids: string[]) => void }) {
  const items = useQuery(itemsQuery(false));
  const [q, setQ] = useState('');
  const id = useId();
  const open = (items.data ?? []).filter((i) => !ENDED.has(i.status));
  const byId = new Map(open.map((i) => [i.id, i]));
  const needle = q.trim().toLowerCase();
  const found: Item[] = needle
    ? open
        .filter((i) => !value.includes(i.id))
        .filter((i) => i.title.toLowerCase().includes(needle) || i.id.includes(needle))
        .slice(0, SHOWN)
    : [];
  return (
    <fieldset className="after-picker">
      <legend>Comes after</legend>
      {value.length > 0 && (
        <ul className="after-picked" aria-label="Items it comes after">
          {value.map((v) => (
            <li key={v} className="chip">
              {byId.get(v)?.title ?? v}{' '}
              <button
                type="button"
                className="link"
                aria-label={`Do not wait for ${byId.get(v)?.title ?? v}`}
                onClick={() => onChange(value.filter((x) => x !== v))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <label htmlFor={id} className="muted small">
        Pick the items it waits for by name; it starts once they complete
      </label>
      <input
        id={id}
        type="search"
        value={q}
        onChange={(e) => setQ(e.target.value)}
        placeholder="name or id"
      />
      {found.length > 0 && (
        <ul className="after-found" aria-label="Matching items">
          {found.map((i) => (
            <li key={i.id}>
              <button
                type="button"
                className="link"
                onClick={() => {
                  onChange([...value, i.id]);
                  setQ('');
                }}
              >
                + {i.title}
              </button>{' '}
              <span className="muted small">
                {i.display_status.replace('_', ' ')} · <code>{i.id}</code>
              </span>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
