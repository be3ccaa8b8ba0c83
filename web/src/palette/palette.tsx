import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Command } from 'cmdk';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { itemsQuery, searchQuery } from '../queries.js';
import { byKind, hasWord, KIND_HEADING, placeOf, snippetParts } from './hits.js';
import './palette.css';

const SHOWN = 50;
/** How long typing pauses before the server is asked: a query per keystroke would be wasted. */
const DEBOUNCE_MS = 200;
const PAGES = [
  { name: 'Board', path: '/' },
  { name: 'Archived items', path: '/archived' },
  { name: 'Analytics', path: '/analytics' },
  { name: 'Templates', path: '/templates' },
  { name: 'Settings', path: '/settings' },
];

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

/**
 * ⌘K / Ctrl+K: find a work item by title or id (matched here, at once), anything Jig knows by its
 * words (the search route, once typing pauses: documents, events, threads, issues, chains…), or
 * jump to a page. A native <dialog> holds cmdk's list (cmdk's own dialog would inject a <style>
 * tag, which the board's CSP refuses).
 */
export function Palette({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const dialog = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const items = useQuery(itemsQuery(false));
  const [query, setQuery] = useState('');
  const asked = useDebounced(query.trim(), DEBOUNCE_MS);
  const search = useQuery({
    ...searchQuery(asked),
    enabled: hasWord(asked),
    placeholderData: keepPreviousData,
  });
  // Filtered here and cut to the best few: cmdk would render every one of thousands of items.
  const found = useMemo(() => {
    const q = query.trim().toLowerCase();
    const all = items.data ?? [];
    if (!q) return all.slice(0, SHOWN);
    const exact = all.filter((i) => i.id === q);
    const rest = all.filter((i) => i.id !== q && (i.id.startsWith(q) || i.title.toLowerCase().includes(q)));
    return [...exact, ...rest].slice(0, SHOWN);
  }, [items.data, query]);
  // An item the title match already lists is not listed again as a text hit.
  const groups = useMemo(() => {
    const listed = new Set(found.map((i) => i.id));
    const hits = hasWord(query.trim()) ? (search.data?.results ?? []) : [];
    return byKind(hits.filter((h) => !(h.kind === 'item' && listed.has(h.ref))));
  }, [search.data, found, query]);
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    // showModal() focuses the dialog itself (React's autoFocus ran while the dialog was still
    // closed and left no `autofocus` attribute), so typing would go nowhere until a click.
    input.current?.focus();
  }, []);
  const go = (path: string) => {
    onClose();
    void navigate(path);
  };
  const pages = PAGES.filter((p) => p.name.toLowerCase().includes(query.trim().toLowerCase()));
  return (
    <dialog ref={dialog} className="palette" aria-label="Search" onClose={onClose} onCancel={onClose}>
      <Command label="Search work items, what Jig knows, and pages" loop shouldFilter={false}>
        <Command.Input
          ref={input}
          value={query}
          onValueChange={setQuery}
          placeholder="Find a work item, a document, an event… or a page"
        />
        <Command.List>
          {search.isFetching && <Command.Loading>Searching…</Command.Loading>}
          <Command.Empty>Nothing matches.</Command.Empty>
          {found.length > 0 && (
            <Command.Group heading="Work items">
              {found.map((i) => (
                <Command.Item key={i.id} value={`item ${i.id}`} onSelect={() => go(`/work-items/${i.id}`)}>
                  <span>{i.title}</span> <code className="muted small">{i.id}</code>
                </Command.Item>
              ))}
            </Command.Group>
          )}
          {groups.map(([kind, hits]) => (
            <Command.Group key={kind} heading={KIND_HEADING[kind]}>
              {hits.map((h) => {
                const place = placeOf(h);
                return (
                  <Command.Item
                    key={`${h.kind}:${h.ref}`}
                    value={`${h.kind}:${h.ref}`}
                    disabled={place === null}
                    onSelect={() => place && go(place)}
                  >
                    <span className="hit">
                      <span>
                        {h.title}
                        {h.work_item_id && h.kind !== 'item' && (
                          <code className="muted small"> {h.work_item_id}</code>
                        )}
                        {place === null && <span className="muted small"> (not filed)</span>}
                      </span>
                      <span className="hit-snippet muted small">
                        {snippetParts(h.snippet).map((p, i) =>
                          p.hit ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>,
                        )}
                      </span>
                    </span>
                  </Command.Item>
                );
              })}
            </Command.Group>
          ))}
          {pages.length > 0 && (
            <Command.Group heading="Pages">
              {pages.map((p) => (
                <Command.Item key={p.path} value={`page ${p.path}`} onSelect={() => go(p.path)}>
                  {p.name}
                </Command.Item>
              ))}
            </Command.Group>
          )}
        </Command.List>
        {search.isError && <p role="alert">Search failed: {search.error.message}</p>}
      </Command>
    </dialog>
  );
}
