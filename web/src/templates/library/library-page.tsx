import { useQuery } from '@tanstack/react-query';
import { NavLink, useNavigate, useParams } from 'react-router';
import type { LibraryAnswer, LibraryComponent } from '../../../../src/contract/templates.js';
import { libraryQuery } from '../../queries.js';
import { plural } from '../../words.js';
import { ComponentDetail } from './library-detail.js';
import { LibraryFile } from './library-file.js';
import './templates.css';

/*
 * Library: the components chains build from, grouped by section, each with how many chains use it;
 * one open in the detail pane at `/templates/library/<section>.<name>`, the whole file at
 * `/templates/library/yaml`.
 */

const SECTIONS = [
  { id: 'nodes', label: 'Nodes' },
  { id: 'steps', label: 'Steps' },
  { id: 'tasks', label: 'Tasks' },
  { id: 'steering', label: 'Steering' },
] as const;

/** What a component says about itself in one line: its description, kind or instructions. */
function gist(c: LibraryComponent): string {
  const w = c.written;
  if (typeof w !== 'object' || w === null) return '';
  const rec: Record<string, unknown> = { ...w };
  for (const key of ['description', 'instructions', 'prompt', 'run']) {
    const v = rec[key];
    if (typeof v === 'string' && v.trim() !== '') return v.split('\n')[0] ?? '';
  }
  return typeof rec.kind === 'string' ? rec.kind : '';
}

function usage(c: LibraryComponent): string {
  const parts = [plural(c.used_by.chains.length, 'chain')];
  if (c.used_by.repos.length > 0) parts.push(plural(c.used_by.repos.length, 'repo'));
  return `used by ${parts.join(', ')}`;
}

function ComponentList({ lib, selected }: { lib: LibraryAnswer; selected: string | null }) {
  const navigate = useNavigate();
  return (
    <div className="lib-list">
      {SECTIONS.map((s) => {
        const items = lib.components.filter((c) => c.section === s.id);
        return (
          <section key={s.id} aria-labelledby={`lib-${s.id}`}>
            <h2 id={`lib-${s.id}`}>
              {s.label} <span className="muted small">{items.length}</span>
            </h2>
            {items.length === 0 && <p className="muted small">None in library.yaml.</p>}
            <ul className="lib-rows">
              {items.map((c) => (
                <li key={c.ref}>
                  <button
                    type="button"
                    className={`lib-row${selected === c.ref ? ' active' : ''}`}
                    aria-current={selected === c.ref ? 'true' : undefined}
                    onClick={() => void navigate(`/templates/library/${c.ref}`)}
                  >
                    <span className="lib-name">
                      <code>{c.name}</code>
                      {c.problems.length > 0 && (
                        <span className="chip chip-warn">{plural(c.problems.length, 'problem')}</span>
                      )}
                    </span>
                    <span className="lib-usage small">{usage(c)}</span>
                    <span className="lib-gist muted small">{gist(c)}</span>
                  </button>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}

export function LibraryPage() {
  const rest = useParams()['*'] ?? '';
  const lib = useQuery(libraryQuery());
  const yaml = rest === 'yaml';
  const selected = !yaml && rest !== '' ? rest : null;
  return (
    <div className="lib">
      <nav className="lib-views" aria-label="Library views">
        <NavLink end to="/templates/library" className={() => (yaml ? '' : 'active')}>
          Components
        </NavLink>
        <NavLink to="/templates/library/yaml">YAML</NavLink>
      </nav>
      {lib.error && <p role="alert">Could not read the library: {lib.error.message}</p>}
      {yaml ? (
        <LibraryFile />
      ) : (
        lib.data && (
          <>
            {lib.data.problems.length > 0 && (
              <div className="banner" role="status">
                library.yaml has {plural(lib.data.problems.length, 'problem')}:
                <ul>
                  {lib.data.problems.map((p, i) => (
                    <li key={i}>
                      <code>
                        {p.file}
                        {p.line ? `:${p.line}` : ''}
                      </code>{' '}
                      {p.message}
                    </li>
                  ))}
                </ul>
              </div>
            )}
            <div className="lib-body">
              <ComponentList lib={lib.data} selected={selected} />
              {selected ? (
                <ComponentDetail lib={lib.data} ref_={selected} />
              ) : (
                <p className="lib-detail muted">Pick a component to see what it is and what uses it.</p>
              )}
            </div>
          </>
        )
      )}
    </div>
  );
}
