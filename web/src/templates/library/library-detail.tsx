import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { stringify } from 'yaml';
import type { LibraryAnswer } from '../../../../src/contract/templates.js';
import { libraryComponentQuery } from '../../queries.js';
import { plural } from '../../words.js';
import { buildsOn } from './builds-on.js';
import { SteeringPreview } from './steering-preview.js';

/** One library component: what uses it, what it builds on, its text as written and resolved. */
export function ComponentDetail({ lib, ref_ }: { lib: LibraryAnswer; ref_: string }) {
  const one = useQuery(libraryComponentQuery(ref_));
  if (one.error)
    return (
      <aside className="lib-detail">
        <p role="alert">{one.error.message}</p>
      </aside>
    );
  const c = one.data;
  if (!c) return <aside className="lib-detail muted">Loading…</aside>;
  const base = buildsOn(c, lib.components);
  return (
    <aside className="lib-detail" aria-labelledby="lib-detail-title">
      <h2 id="lib-detail-title">
        <span className="muted small">{c.section}</span> <code>{c.name}</code>
      </h2>
      <dl className="lib-facts">
        <dt>Used by</dt>
        <dd>
          {plural(c.used_by.chains.length, 'chain')}
          {c.used_by.repos.length > 0 ? `, ${plural(c.used_by.repos.length, 'repo')}` : ''}
        </dd>
        <dt>Reaches</dt>
        <dd>
          {c.used_by.chains.length === 0 && c.used_by.repos.length === 0 ? (
            <span className="muted">nothing: a change here reaches no chain or repo</span>
          ) : (
            <ul className="inline-list" aria-label="Reaches">
              {c.used_by.chains.map((id) => (
                <li key={id}>
                  <Link to={`/templates/chains/${id}`}>{id}</Link>
                </li>
              ))}
              {c.used_by.repos.map((p) => (
                <li key={p}>
                  repo <code>{p}</code>
                </li>
              ))}
            </ul>
          )}
        </dd>
        <dt>Builds on</dt>
        <dd>
          {base.length === 0 ? (
            <span className="muted">no other component</span>
          ) : (
            <ul className="inline-list" aria-label="Builds on">
              {base.map((r) => (
                <li key={r}>
                  <Link to={`/templates/library/${r}`}>{r}</Link>
                </li>
              ))}
            </ul>
          )}
        </dd>
      </dl>
      {c.problems.length > 0 && (
        <div role="alert" className="problems">
          <strong>{plural(c.problems.length, 'problem')}</strong>
          <ul>
            {c.problems.map((p, i) => (
              <li key={i}>
                <code>
                  {p.file}
                  {p.line ? `:${p.line}` : ''}
                  {p.field ? ` ${p.field}` : ''}
                </code>{' '}
                {p.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      <h3>As written</h3>
      <pre className="yaml" aria-label="As written">
        {stringify(c.written)}
      </pre>
      {c.section !== 'steering' && (
        <>
          <h3>Resolved</h3>
          {c.resolved === null ? (
            <p className="muted">It does not resolve: see its problems.</p>
          ) : (
            <pre className="yaml" aria-label="Resolved">
              {stringify(c.resolved)}
            </pre>
          )}
        </>
      )}
      {(c.section === 'steering' || c.section === 'tasks') && c.used_by.chains.length > 0 && (
        <SteeringPreview chains={c.used_by.chains} />
      )}
    </aside>
  );
}
