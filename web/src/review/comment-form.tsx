import { lazy, Suspense, useId, useState } from 'react';
import type { ThreadLabel } from '../../../src/contract/threads.js';

// The renderer and its sanitizer load with the first preview, not with the page.
const Markdown = lazy(() => import('../item/markdown.js'));

export interface Draft {
  body: string;
  label: ThreadLabel | null;
  suggestion: string | null;
}

/**
 * A comment being written: Markdown with a preview, a label, and (on new-side lines) a suggested
 * replacement for the lines, started from their text now. A reply has neither label nor suggestion.
 */
export function CommentForm({
  title,
  submitLabel,
  suggestFrom,
  reply = false,
  busy = false,
  error = null,
  onSubmit,
  onCancel,
}: {
  title: string;
  submitLabel: string;
  /** The lines' text now: offered as a suggestion's start; null where a suggestion cannot go. */
  suggestFrom: string | null;
  reply?: boolean;
  busy?: boolean;
  error?: string | null;
  onSubmit: (d: Draft) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [body, setBody] = useState('');
  const [label, setLabel] = useState<ThreadLabel | ''>('');
  const [suggesting, setSuggesting] = useState(false);
  const [suggestion, setSuggestion] = useState(suggestFrom ?? '');
  const [preview, setPreview] = useState(false);
  return (
    <form
      className="rv-form"
      aria-label={title}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit({ body, label: label || null, suggestion: suggesting ? suggestion : null });
      }}
    >
      <div className="tabs" role="tablist">
        <button type="button" role="tab" aria-selected={!preview} onClick={() => setPreview(false)}>
          Write
        </button>
        <button type="button" role="tab" aria-selected={preview} onClick={() => setPreview(true)}>
          Preview
        </button>
      </div>
      {preview ? (
        <div className="rv-preview" aria-label="preview">
          {body.trim() === '' ? (
            <p className="muted">Nothing to preview.</p>
          ) : (
            <Suspense fallback={<pre className="doc-text">{body}</pre>}>
              <Markdown text={body} />
            </Suspense>
          )}
        </div>
      ) : (
        <textarea
          id={`${id}-body`}
          aria-label="Comment"
          rows={3}
          value={body}
          placeholder="Markdown: **bold**, `code`, lists…"
          onChange={(e) => setBody(e.target.value)}
        />
      )}
      {!reply && (
        <div className="rv-form-row">
          <label>
            Label{' '}
            <select value={label} onChange={(e) => setLabel(e.target.value as ThreadLabel | '')}>
              <option value="">none</option>
              <option value="must-fix">must-fix</option>
              <option value="question">question</option>
              <option value="nit">nit</option>
            </select>
          </label>
          {suggestFrom !== null && (
            <label>
              <input type="checkbox" checked={suggesting} onChange={(e) => setSuggesting(e.target.checked)} />{' '}
              Suggest a change
            </label>
          )}
        </div>
      )}
      {suggesting && (
        <label className="rv-suggest">
          Suggested lines
          <textarea
            rows={Math.min(8, suggestion.split('\n').length + 1)}
            value={suggestion}
            onChange={(e) => setSuggestion(e.target.value)}
            className="mono"
          />
        </label>
      )}
      {error && <p role="alert">{error}</p>}
      <div className="rv-form-row">
        <button type="submit" className="primary" disabled={busy || body.trim() === ''}>
          {submitLabel}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
