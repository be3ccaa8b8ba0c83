import { useState } from 'react';
import type { Problem, Result } from './draft-api.js';
import { sourceLabel, type Field } from './shape.js';
import { AddField } from './add-field.js';
import { fieldHelp, type Scope } from './field-help.js';
import { isScalarList, isScalarMap, typedText } from './typed.js';
import { JsonValue, ListValue, MapValue } from './values.js';

/*
 * One component's fields as the result object's `sources` gives them: each value with where it
 * comes from, editable with `set_field`, a reset (`reset_field`) for one set here over an
 * inherited value, the closed sets (`ref`, `target`, `inputs`, `grants`) from `choices`, and the
 * problems of that field beside it.
 */

export interface FieldEdits {
  set: (field: string, value: unknown) => Promise<void>;
  reset: (field: string) => Promise<void>;
}

const HIDDEN = new Set(['kind', 'extends']);

function Value({
  name,
  field,
  choices,
  onSet,
}: {
  name: string;
  field: Field;
  choices: Result['choices'];
  onSet: (v: unknown) => Promise<void>;
}) {
  const v = field.value;
  const [draft, setDraft] = useState(typeof v === 'string' || typeof v === 'number' ? String(v) : '');
  const label = `${name}`;
  if (name === 'ref' || name === 'target') {
    const options = choices[name];
    return (
      <select
        aria-label={label}
        value={typeof v === 'string' ? v : ''}
        onChange={(e) => void onSet(e.target.value)}
      >
        {typeof v !== 'string' && <option value="">(none)</option>}
        {typeof v === 'string' && !options.some((o) => o.value === v) && (
          // A value outside the set (a problem) is shown as written, not as the first choice.
          <option value={v}>{v}</option>
        )}
        {options.map((o) => (
          <option key={o.value} value={o.value} title={o.summary}>
            {o.value}
          </option>
        ))}
      </select>
    );
  }
  if (name === 'inputs' || name === 'grants') {
    const on = Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
    return (
      <fieldset className="ce-set" aria-label={label}>
        {choices[name].map((o) => (
          <label key={o.value} title={o.summary}>
            <input
              type="checkbox"
              checked={on.includes(o.value)}
              onChange={(e) =>
                void onSet(e.target.checked ? [...on, o.value] : on.filter((x) => x !== o.value))
              }
            />
            {o.value}
          </label>
        ))}
      </fieldset>
    );
  }
  if (typeof v === 'boolean') {
    return (
      <input type="checkbox" aria-label={label} checked={v} onChange={(e) => void onSet(e.target.checked)} />
    );
  }
  if (isScalarList(v)) return <ListValue label={label} value={v} onSet={onSet} />;
  if (isScalarMap(v)) return <MapValue label={label} value={v} onSet={onSet} />;
  if (v !== null && typeof v === 'object') return <JsonValue label={label} value={v} onSet={onSet} />;
  const save = () => {
    if (draft === (typeof v === 'string' || typeof v === 'number' ? String(v) : '')) return;
    if (v === null) {
      void onSet(typedText(draft));
      return;
    }
    void onSet(
      typeof v === 'number' && draft.trim() !== '' && !Number.isNaN(Number(draft)) ? Number(draft) : draft,
    );
  };
  const long = typeof v === 'string' && (v.length > 60 || v.includes('\n'));
  return long ? (
    <textarea
      aria-label={label}
      value={draft}
      rows={4}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={save}
    />
  ) : (
    <input
      aria-label={label}
      value={draft}
      placeholder={v === null ? 'not set' : undefined}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={save}
      onKeyDown={(e) => {
        if (e.key === 'Enter') save();
      }}
    />
  );
}

/** A field's label in words, its description under it, and its YAML key on hover. */
function FieldName({ scope, name }: { scope: Scope; name: string }) {
  const help = fieldHelp(scope, name);
  return (
    <span className="ce-name" title={name}>
      {help.label}
      {help.description && <span className="ce-desc">{help.description}</span>}
    </span>
  );
}

export function Fields({
  scope,
  fields,
  problems,
  choices,
  inherits,
  edits,
}: {
  /** What the fields are of: their labels and the keys the add row offers come from its schema. */
  scope: Scope;
  fields: Record<string, Field>;
  problems: readonly Problem[];
  choices: Result['choices'];
  /** The component extends a library one, so a value set here can be reset to it. */
  inherits: boolean;
  edits: FieldEdits;
}) {
  const shown = Object.entries(fields).filter(([k]) => !HIDDEN.has(k));
  const loose = problems.filter((p) => !p.field || !(p.field in fields) || HIDDEN.has(p.field));
  return (
    <div className="ce-fields">
      {loose.map((p, i) => (
        <p key={i} className="ce-problem" role="alert">
          {p.field ? `${p.field}: ` : ''}
          {p.message}
        </p>
      ))}
      {shown.map(([k, f]) => {
        const mine = problems.filter((p) => p.field === k);
        return (
          <div
            key={`${k}:${JSON.stringify(f.value)}`}
            className={`ce-field${mine.length ? ' ce-field-bad' : ''}`}
          >
            <FieldName scope={scope} name={k} />
            <Value name={k} field={f} choices={choices} onSet={(v) => edits.set(k, v)} />
            <span className="ce-meta">
              <span className={`chip ce-src ce-src-${f.source.split(':')[0]}`}>{sourceLabel(f.source)}</span>
              {inherits && f.source === 'chain' && k !== 'id' ? (
                <button
                  type="button"
                  className="link"
                  aria-label={`Reset ${k}`}
                  onClick={() => void edits.reset(k)}
                >
                  reset
                </button>
              ) : null}
            </span>
            {mine.map((p, i) => (
              <p key={i} className="ce-problem" role="alert">
                {p.message}
              </p>
            ))}
          </div>
        );
      })}
      <AddField scope={scope} set={shown.map(([k]) => k)} onSet={edits.set} />
    </div>
  );
}
