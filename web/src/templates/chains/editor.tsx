import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { LibraryAnswer } from '../../../../src/contract/templates.js';
import { ApiError, get } from '../../api.js';
import { chainFile, useDraft, useDraftActions, type ChainOp, type Published } from './draft-api.js';
import EditGraph from './edit-graph.js';
import { Inspector } from './inspector.js';
import { Publish } from './publish.js';
import { Fields } from './fields.js';
import { chainFields, chainParts, problemsIn } from './shape.js';
import { YamlView, type YamlEdit } from './yaml-view.js';

/*
 * One chain's editor on its draft: the graph with the selected node's inspector beside it, the
 * YAML view, undo, discard and Review & publish. Every change is an op or a PUT; the screen is
 * drawn from the answer's result object, so what it shows is what the server checked.
 */

type View = 'graph' | 'yaml' | 'publish';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function ChainEditor() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const file = chainFile(id);
  const draft = useDraft(id);
  const act = useDraftActions(id);
  const library = useQuery({
    queryKey: ['library'],
    queryFn: () => get<LibraryAnswer>('/api/templates/library'),
  });
  const [selected, setSelected] = useState<string | null>(null);
  const [view, setView] = useState<View>('graph');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [newId, setNewId] = useState('');
  const [newKind, setNewKind] = useState<'exec' | 'gate'>('exec');
  // Typed YAML not saved yet: kept here so switching views does not lose it.
  const [yamlEdit, setYamlEdit] = useState<YamlEdit | null>(null);
  const d = draft.data;
  const parts = useMemo(() => (d ? chainParts(d.result, file) : []), [d, file]);
  const problems = d?.result.problems ?? [];
  const counts = useMemo(
    () => new Map(parts.map((p) => [p.id, problemsIn(problems, p.id).length])),
    [parts, problems],
  );
  const libNames = (section: string) =>
    (library.data?.components ?? []).filter((c) => c.section === section).map((c) => c.name);

  const fail = (e: unknown) => setError(e instanceof ApiError ? `${e.message}` : String(e));
  const run = async (ops: ChainOp[]): Promise<boolean> => {
    setError(null);
    setDone(null);
    try {
      await act.ops(ops);
      // A rename or a new node moves the selection with it.
      for (const op of ops) {
        if (op.op === 'rename' && op.path === selected) setSelected(op.id);
        if (op.op === 'add_node') setSelected(op.id);
        if (op.op === 'remove' && op.path === selected) setSelected(null);
      }
      return true;
    } catch (e) {
      fail(e);
      return false;
    }
  };

  if (draft.isPending) return <p className="muted">Loading {id}…</p>;
  if (draft.error || !d) {
    return (
      <p className="banner" role="alert">
        {draft.error instanceof ApiError && draft.error.status === 404
          ? `No chain ${id}.`
          : String(draft.error)}{' '}
        <Link to="/templates/chains">All chains</Link>
      </p>
    );
  }
  const at = parts.findIndex((p) => p.id === selected);
  const node = at >= 0 ? parts[at] : undefined;
  const insertAt = at >= 0 ? at + 1 : parts.length;
  const published = (p: Published | null) => {
    setView('graph');
    setYamlEdit(null);
    setDone(p ? `Published ${p.published.join(', ')}: new items run this chain.` : 'Draft discarded.');
  };
  return (
    <section className="ce" aria-label={`Chain ${id}`}>
      <header className="ce-bar">
        <h2>
          <Link to="/templates/chains">Chains</Link> › {id}
        </h2>
        <span className={d.draft ? 'chip chip-warn' : 'chip'}>
          {d.draft
            ? `draft · ${plural(d.result.changes.length, 'change')} · ${plural(problems.length, 'problem')}`
            : 'published, no draft'}
        </span>
        <nav className="tabs" aria-label="Editor view">
          <button
            type="button"
            className={view === 'graph' ? 'tab active' : 'tab'}
            aria-pressed={view === 'graph'}
            onClick={() => setView('graph')}
          >
            Graph
          </button>
          <button
            type="button"
            className={view === 'yaml' ? 'tab active' : 'tab'}
            aria-pressed={view === 'yaml'}
            onClick={() => setView('yaml')}
          >
            YAML{yamlEdit ? ' (unsaved)' : ''}
          </button>
        </nav>
        <button type="button" disabled={!d.draft} onClick={() => void act.undo().catch(fail)}>
          Undo
        </button>
        <button
          type="button"
          className="danger"
          disabled={!d.draft}
          onClick={() =>
            void act
              .discard()
              .then(() => published(null))
              .catch(fail)
          }
        >
          Discard draft
        </button>
        <button
          type="button"
          className="primary"
          disabled={!d.draft}
          onClick={() => {
            setView('publish');
            // What is on disk may have moved since the draft was read: the diff is against it.
            void draft.refetch();
          }}
        >
          Review &amp; publish
        </button>
      </header>
      {error && (
        <p className="banner" role="alert">
          {error}
        </p>
      )}
      {done && <p role="status">{done}</p>}
      {yamlEdit && view !== 'yaml' && (
        <p className="banner" role="status">
          The YAML view holds text you have not saved: it is not in the draft.{' '}
          <button type="button" className="link" onClick={() => setView('yaml')}>
            Back to it
          </button>
        </p>
      )}
      {view === 'publish' && (
        <Publish
          draft={d}
          publish={() => act.publish()}
          rebase={() => act.rebase()}
          putFile={(f, t) => act.putFile(f, t)}
          discard={() => act.discard()}
          onDone={published}
          onBack={() => setView('graph')}
        />
      )}
      {view === 'yaml' && (
        <YamlView
          draft={d}
          file={file}
          save={(t) => act.putFile(file, t)}
          edit={yamlEdit}
          onEdit={setYamlEdit}
        />
      )}
      {view === 'graph' && (
        <>
          {problems.length > 0 && (
            <details className="ce-problems" open>
              <summary>
                {problems.length} problem{problems.length === 1 ? '' : 's'} (a publish refuses them)
              </summary>
              <ul>
                {problems.map((p, i) => (
                  <li key={i}>
                    <button
                      type="button"
                      className="link"
                      onClick={() => setSelected(p.path.split('.')[0] ?? null)}
                    >
                      {p.path || '(chain)'}
                    </button>{' '}
                    {p.field ? `${p.field}: ` : ''}
                    {p.message}
                    {p.line ? <span className="muted"> · line {p.line}</span> : null}
                  </li>
                ))}
              </ul>
            </details>
          )}
          <form
            className="ce-inline ce-add-node"
            onSubmit={(e) => {
              e.preventDefault();
              void run([{ op: 'add_node', at: insertAt, id: newId.trim(), kind: newKind }]).then(
                (ok) => ok && setNewId(''),
              );
            }}
          >
            <input
              aria-label="New node id"
              placeholder="new node id"
              value={newId}
              onChange={(e) => setNewId(e.target.value)}
            />
            <select
              aria-label="New node kind"
              value={newKind}
              onChange={(e) => setNewKind(e.target.value === 'gate' ? 'gate' : 'exec')}
            >
              <option value="exec">exec</option>
              <option value="gate">gate</option>
            </select>
            <button type="submit">{node ? `Add node after ${node.id}` : 'Add node at the end'}</button>
          </form>
          <div className="chain-area ce-area">
            {parts.length ? (
              <EditGraph
                nodes={parts}
                problems={counts}
                selected={selected}
                onSelect={setSelected}
                onMove={(id, to) => void run([{ op: 'move', path: id, to }])}
              />
            ) : (
              <p className="muted ce-empty">No nodes yet: add the first one above.</p>
            )}
            {node ? (
              <Inspector
                key={node.id}
                node={node}
                at={at}
                count={parts.length}
                problems={problems}
                choices={d.result.choices}
                libNodes={libNames('nodes')}
                libTasks={libNames('tasks')}
                run={run}
              />
            ) : (
              <aside className="inspector ce-inspector" aria-label={`Chain ${id} itself`}>
                <h2 className="ce-head">Chain {id}</h2>
                <p className="muted">Select a node in the graph to edit it. The chain&apos;s own keys:</p>
                <Fields
                  key={d.updated_at ?? ''}
                  fields={chainFields(d.result, file)}
                  problems={problems.filter((p) => p.path === '')}
                  choices={d.result.choices}
                  inherits={false}
                  edits={{
                    set: async (field, value) => {
                      await run([{ op: 'set_field', path: '', field, value }]);
                    },
                    reset: async (field) => {
                      await run([{ op: 'reset_field', path: '', field }]);
                    },
                  }}
                />
              </aside>
            )}
          </div>
        </>
      )}
      <p className="muted ce-foot">
        <button type="button" className="link" onClick={() => void navigate('/templates/chains')}>
          Back to all chains
        </button>
      </p>
    </section>
  );
}
