import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ProblemSchema } from '../../../../src/contract/reload.js';
import type { z } from 'zod';
import { ApiError, callRoute, routes } from '../../api.js';
import { keys, libraryFileQuery } from '../../queries.js';

type Problem = z.infer<typeof ProblemSchema>;

/*
 * library.yaml as text: read with its ETag, saved whole with `If-Match`, so a save over someone
 * else's newer text is refused instead of losing it. A refusal's problems show at their line.
 */

function problemsOf(e: ApiError): Problem[] {
  const body = e.body;
  if (typeof body !== 'object' || body === null || !('problems' in body)) return [];
  const list: unknown = body.problems;
  if (!Array.isArray(list)) return [];
  const out: Problem[] = [];
  const items: unknown[] = list;
  for (const p of items)
    if (typeof p === 'object' && p !== null && 'message' in p && typeof p.message === 'string')
      out.push({
        path: 'path' in p && typeof p.path === 'string' ? p.path : '',
        field: 'field' in p && typeof p.field === 'string' ? p.field : null,
        message: p.message,
        file: 'file' in p && typeof p.file === 'string' ? p.file : '',
        line: 'line' in p && typeof p.line === 'number' ? p.line : null,
        col: 'col' in p && typeof p.col === 'number' ? p.col : null,
      });
  return out;
}

export function LibraryFile() {
  const client = useQueryClient();
  const file = useQuery(libraryFileQuery());
  const [text, setText] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<ApiError | null>(null);
  const [saved, setSaved] = useState(false);
  if (file.error) return <p role="alert">{file.error.message}</p>;
  if (!file.data) return <p className="muted">Loading…</p>;
  const shown = text ?? file.data.body.text;
  const lines = shown.split('\n');
  const problems = refusal ? problemsOf(refusal) : [];
  const save = async () => {
    setRefusal(null);
    setSaved(false);
    try {
      await callRoute(routes.putLibrary, {
        body: { text: shown },
        headers: file.data.etag ? { 'if-match': file.data.etag } : {},
      });
      setText(null);
      setSaved(true);
      await client.invalidateQueries({ queryKey: keys.library });
      await client.invalidateQueries({ queryKey: libraryFileQuery().queryKey });
    } catch (e) {
      if (e instanceof ApiError) setRefusal(e);
      else throw e;
    }
  };
  return (
    <section className="lib-file" aria-labelledby="lib-file-title">
      <h2 id="lib-file-title">
        <code>{file.data.body.file}</code>
      </h2>
      <p className="muted small">
        Saved whole: checked as a reload checks it against every chain and repo, written, then reloaded.
        Comments are kept as typed.
      </p>
      {refusal && (
        <div role="alert" className="problems">
          <p>{refusal.message}</p>
          {refusal.is('template_changed') && (
            <p>
              Someone saved library.yaml since you opened it: copy your change, then{' '}
              <button
                type="button"
                className="link"
                onClick={() => {
                  setText(null);
                  setRefusal(null);
                  void file.refetch();
                }}
              >
                load their version
              </button>{' '}
              and make it again.
            </p>
          )}
          <ul>
            {problems.map((p, i) => (
              <li key={i}>
                <code>
                  {p.file}
                  {p.line ? `:${p.line}${p.col ? `:${p.col}` : ''}` : ''}
                </code>{' '}
                {p.field ? <code>{p.field}</code> : null} {p.message}
                {p.line && p.file === 'library.yaml' && lines[p.line - 1] !== undefined && (
                  <pre className="yaml">{`${p.line} | ${lines[p.line - 1]}`}</pre>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="buttons">
        <button type="button" className="primary" disabled={text === null} onClick={() => void save()}>
          Save library.yaml
        </button>
        <button type="button" disabled={text === null} onClick={() => setText(null)}>
          Revert
        </button>
        {saved && <span role="status">Saved and reloaded.</span>}
      </div>
      <textarea
        className="yaml-edit"
        aria-label="library.yaml text"
        value={shown}
        spellCheck={false}
        rows={Math.min(40, Math.max(12, lines.length + 1))}
        onChange={(e) => {
          setText(e.target.value);
          setSaved(false);
        }}
      />
    </section>
  );
}
