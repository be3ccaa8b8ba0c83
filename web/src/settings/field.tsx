import { createContext, useContext, useEffect, useId, useRef, useState } from 'react';
import { FieldProblems, Source, parseNumber, type Problem } from './draft.js';

/*
 * One value of a settings draft: its input, where the value comes from, and the problems the
 * server finds at it. A change is sent when the field is left or Enter is pressed, as one op.
 */

/**
 * Which answer of the draft the fields show. A new one puts every field back to the draft's value
 * (an undo, a publish); a screen keeps it fixed while its file does not load, so what was typed
 * stays beside its problem.
 */
export const FieldVersion = createContext<string>('');

interface Props {
  label: string;
  /** A shorter visible label where the context says the rest (a table cell); `label` stays its name. */
  short?: string;
  value: number | null;
  source?: string | null;
  problems?: Problem[];
  /** What to show while the value is unset ("no bound", "not set"). */
  unset?: string;
  disabled?: boolean;
  /**
   * Why this value cannot be cleared, when it cannot: an empty field then shows the message and
   * the value again instead of sending anything, so it never looks empty while the value stays.
   */
  required?: string;
  onSave: (v: number | null) => Promise<unknown>;
}

export function NumberField({
  label,
  short,
  value,
  source = null,
  problems = [],
  unset,
  disabled,
  required,
  onSave,
}: Props) {
  const id = useId();
  const shown = value === null ? '' : String(value);
  const [text, setText] = useState(shown);
  const [bad, setBad] = useState(false);
  const [refused, setRefused] = useState(false);
  const version = useContext(FieldVersion);
  // The text last sent: Enter then leaving the field before the answer would send it twice (two
  // undo steps for one change).
  const sent = useRef<string | null>(null);
  // The draft's answer is the truth: a publish, undo or another field's op may change this value.
  useEffect(() => {
    setText(shown);
    sent.current = null;
  }, [shown, version]);

  function commit() {
    const t = text.trim();
    setRefused(false);
    if (t === shown || t === sent.current) return;
    const v = parseNumber(text);
    setBad(v === undefined);
    if (v === null && required !== undefined) {
      setRefused(true);
      setText(shown);
      return;
    }
    if (v !== undefined) {
      sent.current = t;
      void onSave(v);
    }
  }

  return (
    <div className={`field${problems.length > 0 ? ' has-problem' : ''}`}>
      <label htmlFor={id}>{short ?? label}</label>
      <span className="field-input">
        <input
          id={id}
          aria-label={short ? label : undefined}
          inputMode="decimal"
          value={text}
          placeholder={unset}
          disabled={disabled}
          aria-invalid={problems.length > 0 || bad || refused}
          onChange={(e) => setText(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === 'Enter') commit();
          }}
        />
        <Source source={value === null ? null : source} />
      </span>
      {bad && (
        <p className="field-problems" role="alert">
          Not a number.
        </p>
      )}
      {refused && (
        <p className="field-problems" role="alert">
          {required}
        </p>
      )}
      <FieldProblems problems={problems} />
    </div>
  );
}

/** A yes/no value of a draft, sent as soon as it is ticked. */
export function CheckField({
  label,
  value,
  source = null,
  problems = [],
  onSave,
}: {
  label: string;
  value: boolean;
  source?: string | null;
  problems?: Problem[];
  onSave: (v: boolean) => Promise<unknown>;
}) {
  return (
    <div className="field">
      <label className="check">
        <input type="checkbox" checked={value} onChange={(e) => void onSave(e.target.checked)} />
        {label}
        <Source source={source} />
      </label>
      <FieldProblems problems={problems} />
    </div>
  );
}
