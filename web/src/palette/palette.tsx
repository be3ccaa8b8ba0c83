import { useQuery } from '@tanstack/react-query';
import { Command } from 'cmdk';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { allItems } from '../api.js';

const SHOWN = 50;
const PAGES = [
  { name: 'Board', path: '/' },
  { name: 'Archived items', path: '/archived' },
];

/**
 * ⌘K / Ctrl+K: find a work item by title or id, or jump to a page. A native <dialog> holds cmdk's
 * list (cmdk's own dialog would inject a <style> tag, which the board's CSP refuses).
 */
export function Palette({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const dialog = useRef<HTMLDialogElement>(null);
  const items = useQuery({ queryKey: ['items', false], queryFn: () => allItems('false') });
  const [query, setQuery] = useState('');
  // Filtered here and cut to the best few: cmdk would render every one of thousands of items.
  const found = useMemo(() => {
    const q = query.trim().toLowerCase();
    const all = items.data ?? [];
    if (!q) return all.slice(0, SHOWN);
    const exact = all.filter((i) => i.id === q);
    const rest = all.filter((i) => i.id !== q && (i.id.startsWith(q) || i.title.toLowerCase().includes(q)));
    return [...exact, ...rest].slice(0, SHOWN);
  }, [items.data, query]);
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);
  const go = (path: string) => {
    onClose();
    void navigate(path);
  };
  return (
    <dialog ref={dialog} className="palette" aria-label="Search" onClose={onClose} onCancel={onClose}>
      <Command label="Search work items and pages" loop shouldFilter={false}>
        <Command.Input
          autoFocus
          value={query}
          onValueChange={setQuery}
          placeholder="Find a work item by title or id, or a page…"
        />
        <Command.List>
          <Command.Empty>Nothing matches.</Command.Empty>
          <Command.Group heading="Work items">
            {found.map((i) => (
              <Command.Item
                key={i.id}
                value={`${i.title} ${i.id}`}
                onSelect={() => go(`/work-items/${i.id}`)}
              >
                <span>{i.title}</span> <code className="muted small">{i.id}</code>
              </Command.Item>
            ))}
          </Command.Group>
          <Command.Group heading="Pages">
            {PAGES.filter((p) => p.name.toLowerCase().includes(query.trim().toLowerCase())).map((p) => (
              <Command.Item key={p.path} value={p.name} onSelect={() => go(p.path)}>
                {p.name}
              </Command.Item>
            ))}
          </Command.Group>
        </Command.List>
      </Command>
    </dialog>
  );
}
