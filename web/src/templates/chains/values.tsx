import { useState } from 'react';
import { linesToList, typedText, type Scalar } from './typed.js';

/*
 * The list and mapping values of a component (`steering`, `fallback`, `allowed_tools`, `env`, …),
 * edited as text and sent whole with the same `set_field` the scalars use. A list of texts is one
 * item per line; a mapping of scalars is key/value rows; anything deeper is JSON.
 */

export function ListValue({
  label,
  value,
  onSet,
}: {
  label: string;
  value: Scalar[];
  onSet: (v: unknown) => Promise<void>;
}) {
  const initial = value.map(String).join('\n');
  const [text, setText] = useState(initial);
  const numbers = value.length > 0 && value.every((x) => typeof x === 'number');
  return (
    <textarea
      className="ce-list"
      aria-label={label}
      title="One item per line"
      rows={Math.min(8, Math.max(2, value.length + 1))}
      value={text}
      onChange={(e) => setText(e.target.value)}
      onBlur={() => {
        if (text !== initial) void onSet(linesToList(text, numbers));
      }}
    />
  );
}

export function MapValue({
  label,
  value,
  onSet,
}: {
  label: string;
  value: Record<string, Scalar>;
  onSet: (v: unknown) => Promise<void>;
}) {
  const [rows, setRows] = useState<[string, string][]>(() =>
    Object.entries(value).map(([k, v]) => [k, String(v)]),
  );
  // A key that held text keeps text; any other reads as YAML would: `3` a number, `true` a boolean.
  const typed = (k: string, v: string): unknown => (typeof value[k] === 'string' ? v : typedText(v));
  const set = (i: number, at: 0 | 1, v: string) =>
    setRows(rows.map((r, j) => (j === i ? (at === 0 ? [v, r[1]] : [r[0], v]) : r)));
  return (
    <fieldset className="ce-map" aria-label={label}>
      {rows.map(([k, v], i) => (
        <div key={i} className="ce-map-row">
          <input aria-label={`${label} key ${i + 1}`} value={k} onChange={(e) => set(i, 0, e.target.value)} />
          <input
            aria-label={`${label} value ${i + 1}`}
            value={v}
            onChange={(e) => set(i, 1, e.target.value)}
          />
          <button
            type="button"
            aria-label={`Remove ${label} ${k || `row ${i + 1}`}`}
            onClick={() => setRows(rows.filter((_, j) => j !== i))}
          >
            ×
          </button>
        </div>
      ))}
      <div className="ce-actions">
        <button type="button" onClick={() => setRows([...rows, ['', '']])}>
          Add row
        </button>
        <button
          type="button"
          onClick={() =>
            void onSet(
              Object.fromEntries(
                rows.filter(([k]) => k.trim() !== '').map(([k, v]) => [k.trim(), typed(k, v)]),
              ),
            )
          }
        >
          Save {label}
        </button>
      </div>
    </fieldset>
  );
}

/** A value of any other shape (a list of mappings, nested mappings) as JSON, checked before it is sent. */
export function JsonValue({
  label,
  value,
  onSet,
}: {
  label: string;
  value: unknown;
  onSet: (v: unknown) => Promise<void>;
}) {
  const initial = JSON.stringify(value, null, 2);
  const [text, setText] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  return (
    <span className="ce-json-edit">
      <textarea
        aria-label={label}
        title="JSON"
        rows={Math.min(10, initial.split('\n').length)}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={() => {
          if (text === initial) return;
          try {
            const parsed: unknown = JSON.parse(text);
            setError(null);
            void onSet(parsed);
          } catch (e) {
            setError(e instanceof Error ? e.message : String(e));
          }
        }}
      />
      {error && (
        <span className="ce-problem" role="alert">
          Not JSON: {error}
        </span>
      )}
    </span>
  );
}
