import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api.js';
import EditGraph from './edit-graph.js';
import { AddNodeForm, EditorBar, ProblemList } from './editor-parts.js';
import { Fields } from './fields.js';
import { Inspector } from './inspector.js';
import { Publish } from './publish.js';
import { chainFields } from './shape.js';
import { useChainEditor } from './use-chain-editor.js';
import { YamlView } from './yaml-view.js';

/*
 * One chain's editor on its draft: the graph with the selected node's inspector beside it, the
 * YAML view, undo, discard and Review & publish. Every change is an op or a PUT; the screen is
 * drawn from the answer's result object, so what it shows is what the server checked
 * (use-chain-editor.ts holds the state, editor-parts.tsx the bar and forms).
 */

export function ChainEditor() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const e = useChainEditor(id);
  const { draft, act, file, problems, parts, node } = e;
  const d = draft.data;

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
  return (
    <section className="ce" aria-label={`Chain ${id}`}>
      <EditorBar e={e} d={d} />
      {e.error && (
        <p className="banner" role="alert">
          {e.error}
        </p>
      )}
      {e.done && <p role="status">{e.done}</p>}
      {e.yamlEdit && e.view !== 'yaml' && (
        <p className="banner" role="status">
          The YAML view holds text you have not saved: it is not in the draft.{' '}
          <button type="button" className="link" onClick={() => e.setView('yaml')}>
            Back to it
          </button>
        </p>
      )}
      {e.view === 'publish' && (
        <Publish
          draft={d}
          publish={() => act.publish()}
          rebase={() => act.rebase()}
          putFile={(f, t) => act.putFile(f, t)}
          discard={() => act.discard()}
          onDone={e.published}
          onBack={() => e.setView('graph')}
        />
      )}
      {e.view === 'yaml' && (
        <YamlView
          draft={d}
          file={file}
          save={(t) => act.putFile(file, t)}
          edit={e.yamlEdit}
          onEdit={e.setYamlEdit}
        />
      )}
      {e.view === 'graph' && (
        <>
          <ProblemList problems={problems} onPick={e.select} />
          <AddNodeForm e={e} />
          <div className="chain-area ce-area">
            {parts.length ? (
              <EditGraph
                nodes={parts}
                problems={e.counts}
                selected={e.selected}
                onSelect={e.select}
                onMove={(nodeId, to) => void e.run([{ op: 'move', path: nodeId, to }])}
              />
            ) : (
              <p className="muted ce-empty">No nodes yet: add the first one above.</p>
            )}
            {node ? (
              <Inspector
                key={node.id}
                node={node}
                at={e.at}
                count={parts.length}
                problems={problems}
                choices={d.result.choices}
                libNodes={e.libNames('nodes')}
                libTasks={e.libNames('tasks')}
                run={e.run}
              />
            ) : (
              <aside className="inspector ce-inspector" aria-label={`Chain ${id} itself`}>
                <h2 className="ce-head">Chain {id}</h2>
                <p className="muted">Select a node in the graph to edit it. The chain&apos;s own keys:</p>
                <Fields
                  scope="chain"
                  key={d.updated_at ?? ''}
                  fields={chainFields(d.result, file)}
                  problems={problems.filter((p) => p.path === '')}
                  choices={d.result.choices}
                  inherits={false}
                  edits={{
                    set: async (field, value) => {
                      await e.run([{ op: 'set_field', path: '', field, value }]);
                    },
                    reset: async (field) => {
                      await e.run([{ op: 'reset_field', path: '', field }]);
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
