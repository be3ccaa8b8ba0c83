import { useId, useState } from 'react';
import { fieldHelp, settable, type Scope } from './field-help.js';
import { typedText } from './typed.js';

/**
 * Sets a key the component does not hold yet: the name offers the keys its schema allows, each
 * with its description, and the value's input follows the type of the key picked (a yes/no
 * choice, a number, a line of text, or YAML-ish text for a list or mapping). Any key can still be
 * typed: the server's problems say when one is not allowed.
 */
export function AddField({
  scope,
  set,
  onSet,
}: {
  scope: Scope;
  /** The keys already shown above. */
  set: readonly string[];
  onSet: (field: string, value: unknown) => Promise<void>;
}) {
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const list = useId();
  const help = fieldHelp(scope, name.trim());
  const offered = settable(scope, set);
  const typed = (): unknown => {
    if (help.type === 'boolean') return value !== 'false';
    if (help.type === 'number') return Number(value);
    if (help.type === 'string') return value;
    return typedText(value);
  };
  return (
    <form
      className="ce-add-field"
      onSubmit={(e) => {
        e.preventDefault();
        if (!name.trim()) return;
        void onSet(name.trim(), typed()).then(() => {
          setName('');
          setValue('');
        });
      }}
    >
      <input
        aria-label="Field name"
        placeholder="add a field…"
        list={list}
        value={name}
        onChange={(e) => {
          setName(e.target.value);
          setValue('');
        }}
      />
      <datalist id={list}>
        {offered.map((f) => (
          <option key={f.key} value={f.key}>
            {f.description ? `${f.label}: ${f.description}` : f.label}
          </option>
        ))}
      </datalist>
      {help.type === 'boolean' ? (
        <select aria-label="Field value" value={value || 'true'} onChange={(e) => setValue(e.target.value)}>
          <option value="true">yes</option>
          <option value="false">no</option>
        </select>
      ) : (
        <input
          aria-label="Field value"
          type={help.type === 'number' ? 'number' : 'text'}
          placeholder={
            help.type === 'number'
              ? 'a number'
              : help.type === 'string'
                ? 'text'
                : 'value (["a", "b"] for a list)'
          }
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
      )}
      <button type="submit">Set field</button>
      {help.description && <p className="ce-desc muted small">{help.description}</p>}
    </form>
  );
}
