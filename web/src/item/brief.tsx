import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { callRoute, routes, type Item } from '../api.js';
import { putItem } from '../item-cache.js';
import { RichText } from './rich-text.js';

/** The item's brief, editable in place (`PATCH description`: agents read it at their next launch). */
export function Brief({ item }: { item: Item }) {
  const client = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(item.description);
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    setError(null);
    try {
      const saved = await callRoute(routes.patchItem, {
        params: { id: item.id },
        body: { description: text },
      });
      setEditing(false);
      await putItem(client, saved);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  if (!editing)
    return (
      <div className="brief-row">
        {item.description ? (
          <RichText className="brief" text={item.description} />
        ) : (
          <p className="brief muted">No brief.</p>
        )}
        <button
          type="button"
          className="link"
          onClick={() => {
            setText(item.description);
            setEditing(true);
          }}
        >
          Edit brief
        </button>
      </div>
    );
  return (
    <form
      className="brief-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <textarea aria-label="Brief" rows={5} value={text} onChange={(e) => setText(e.target.value)} />
      <div className="buttons">
        <button type="button" onClick={() => setEditing(false)}>
          Keep the old one
        </button>
        <button type="submit" className="primary">
          Save the brief
        </button>
      </div>
      {error && <p role="alert">{error}</p>}
    </form>
  );
}
