import { useState } from 'react';
import { Link } from 'react-router';
import { plural } from '../../words.js';
import type { Draft, Problem } from './draft-api.js';
import type { ChainEditorState } from './use-chain-editor.js';

/*
 * The pieces of the chain editor's screen (editor.tsx): its bar, the list of problems, and the
 * form that adds a node.
 */

/** The chain's name, the draft's state, Graph and YAML, Undo, Discard draft and Review & publish. */
export function EditorBar({ e, d }: { e: ChainEditorState; d: Draft }) {
  const tab = (view: 'graph' | 'yaml', label: string) => (
    <button
      type="button"
      className={e.view === view ? 'tab active' : 'tab'}
      aria-pressed={e.view === view}
      onClick={() => e.setView(view)}
    >
      {label}
    </button>
  );
  return (
    <header className="ce-bar">
      <h2>
        <Link to="/templates/chains">Chains</Link> › {e.id}
      </h2>
      <span className={d.draft ? 'chip chip-warn' : 'chip'}>
        {d.draft
          ? `draft · ${plural(d.result.changes.length, 'change')} · ${plural(e.problems.length, 'problem')}`
          : 'published, no draft'}
      </span>
      <nav className="tabs" aria-label="Editor view">
        {tab('graph', 'Graph')}
        {tab('yaml', `YAML${e.yamlEdit ? ' (unsaved)' : ''}`)}
      </nav>
      <button type="button" disabled={!d.draft} onClick={() => void e.act.undo().catch(e.fail)}>
        Undo
      </button>
      <button
        type="button"
        className="danger"
        disabled={!d.draft}
        onClick={() =>
          void e.act
            .discard()
            .then(() => e.published(null))
            .catch(e.fail)
        }
      >
        Discard draft
      </button>
      <button
        type="button"
        className="primary"
        disabled={!d.draft}
        onClick={() => {
          e.setView('publish');
          // What is on disk may have moved since the draft was read: the diff is against it.
          void e.draft.refetch();
        }}
      >
        Review &amp; publish
      </button>
    </header>
  );
}

/** Every problem of the draft, each a link to its node. */
export function ProblemList({
  problems,
  onPick,
}: {
  problems: readonly Problem[];
  onPick: (id: string | null) => void;
}) {
  if (problems.length === 0) return null;
  return (
    <details className="ce-problems" open>
      <summary>
        {problems.length} problem{problems.length === 1 ? '' : 's'} (a publish refuses them)
      </summary>
      <ul>
        {problems.map((p, i) => (
          <li key={i}>
            <button type="button" className="link" onClick={() => onPick(p.path.split('.')[0] ?? null)}>
              {p.path || '(chain)'}
            </button>{' '}
            {p.field ? `${p.field}: ` : ''}
            {p.message}
            {p.line ? <span className="muted"> · line {p.line}</span> : null}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** A new node by id and kind, after the selected one (else at the end). */
export function AddNodeForm({ e }: { e: ChainEditorState }) {
  const [newId, setNewId] = useState('');
  const [newKind, setNewKind] = useState<'exec' | 'gate'>('exec');
  return (
    <form
      className="ce-inline ce-add-node"
      onSubmit={(ev) => {
        ev.preventDefault();
        void e
          .run([{ op: 'add_node', at: e.insertAt, id: newId.trim(), kind: newKind }])
          .then((ok) => ok && setNewId(''));
      }}
    >
      <input
        aria-label="New node id"
        placeholder="new node id"
        value={newId}
        onChange={(ev) => setNewId(ev.target.value)}
      />
      <select
        aria-label="New node kind"
        value={newKind}
        onChange={(ev) => setNewKind(ev.target.value === 'gate' ? 'gate' : 'exec')}
      >
        <option value="exec">exec</option>
        <option value="gate">gate</option>
      </select>
      <button type="submit">{e.node ? `Add node after ${e.node.id}` : 'Add node at the end'}</button>
    </form>
  );
}
