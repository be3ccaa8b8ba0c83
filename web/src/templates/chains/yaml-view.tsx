import { useRef, useState } from 'react';
import { ApiError } from '../../api.js';
import type { Draft } from './draft-api.js';

/*
 * The chain file as text: saved whole with the draft's PUT, comments kept. A text that does not
 * parse is stored anyway, and the result's `yaml_error` is marked at its line in the gutter; the
 * other problems are marked at theirs too. The text being typed lives in the editor (`edit`), so it
 * survives a switch to Graph or Review and back.
 */

/** Unsaved YAML: the text typed, and the draft's text it was begun from. */
export interface YamlEdit {
  text: string;
  from: string;
}

export function YamlView({
  draft,
  file,
  save,
  edit,
  onEdit,
}: {
  draft: Draft;
  file: string;
  save: (text: string) => Promise<unknown>;
  edit: YamlEdit | null;
  onEdit: (e: YamlEdit | null) => void;
}) {
  const stored = draft.files[file] ?? '';
  const text = edit?.text ?? stored;
  const setText = (t: string) => onEdit(t === stored ? null : { text: t, from: edit?.from ?? stored });
  const [error, setError] = useState<string | null>(null);
  const gutter = useRef<HTMLDivElement>(null);
  const yamlError = draft.result.yaml_error?.file === file ? draft.result.yaml_error : null;
  const marks = new Map<number, string>();
  for (const p of draft.result.problems) if (p.file === file && p.line) marks.set(p.line, p.message);
  if (yamlError?.line) marks.set(yamlError.line, yamlError.message);
  const lines = text.split('\n').length;
  return (
    <section className="ce-yaml" aria-label="YAML">
      {yamlError && (
        <p className="banner" role="alert">
          {file} does not parse{yamlError.line ? ` at line ${yamlError.line}` : ''}
          {yamlError.col ? `, column ${yamlError.col}` : ''}: {yamlError.message}
        </p>
      )}
      <div className="ce-editor">
        <div className="ce-gutter" ref={gutter} aria-hidden>
          {Array.from({ length: lines }, (_, i) => (
            <div key={i} className={marks.has(i + 1) ? 'ce-mark' : undefined} title={marks.get(i + 1)}>
              {i + 1}
            </div>
          ))}
        </div>
        <textarea
          aria-label={`Text of ${file}`}
          spellCheck={false}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onScroll={(e) => {
            if (gutter.current) gutter.current.scrollTop = e.currentTarget.scrollTop;
          }}
        />
      </div>
      {error && (
        <p className="banner" role="alert">
          {error}
        </p>
      )}
      {edit && edit.from !== stored && (
        <p className="banner" role="status">
          The draft changed since you began typing here: Save YAML stores this text over it, Revert text shows
          the draft&apos;s.
        </p>
      )}
      <div className="ce-actions">
        <button
          type="button"
          className="primary"
          disabled={text === stored}
          onClick={() => {
            setError(null);
            save(text)
              .then(() => onEdit(null))
              .catch((e: unknown) => setError(e instanceof ApiError ? e.message : String(e)));
          }}
        >
          Save YAML
        </button>
        <button type="button" disabled={text === stored} onClick={() => onEdit(null)}>
          Revert text
        </button>
        {marks.size > 0 && !yamlError && (
          <span className="muted">Marked lines have problems (hover a number).</span>
        )}
      </div>
    </section>
  );
}
