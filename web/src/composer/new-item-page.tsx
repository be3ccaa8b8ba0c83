import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { resolvedChainQuery } from '../queries.js';
import { BasicFields, CreateButtons, DryLine, formKeys } from './basic-fields.js';
import { chainNodes, planOf, type NodePlan } from './chain-nodes.js';
import { choicesFor, withNode, type NodeChoice } from './draft.js';
import { resetDraft } from './draft-store.js';
import { ItemOptions } from './item-options.js';
import { EffortList, NodeOptions } from './node-options.js';
import { PlanGraph } from './plan-graph.js';
import { useComposer } from './use-composer.js';
import './new-item-page.css';

/**
 * The composer as a page (`/work-items/new`, or More options in the dialog, with what was typed):
 * everything the dialog asks, the item's policy and budget, and its chain as a graph where each
 * node can be skipped and given its own agent settings and caps, the dry run following each change.
 * `onFewer` opens the dialog again over the page it came from, with the same draft.
 */
export default function NewItemPage({ onFewer }: { onFewer: () => void }) {
  const navigate = useNavigate();
  const location = useLocation();
  const c = useComposer((item) => void navigate(`/work-items/${item.id}`));
  const chain = c.target.chain;
  const resolved = useQuery({ ...resolvedChainQuery(chain), enabled: chain !== '', retry: false });
  const nodes = useMemo(() => chainNodes(resolved.data), [resolved.data]);
  const choices = choicesFor(c.d, chain);
  const [picked, setPicked] = useState<string | null>(null);
  const node = nodes.find((n) => n.id === picked) ?? nodes[0];
  const plans = useMemo(
    () =>
      new Map<string, NodePlan>(nodes.map((n) => [n.id, planOf(n.id, choices[n.id]?.skip === true, c.dry)])),
    [nodes, choices, c.dry],
  );
  const { update } = c;
  const change = useCallback(
    (id: string, patch: Partial<NodeChoice>) => update((d) => withNode(d, chain, id, patch)),
    [update, chain],
  );
  const onSkip = useCallback((id: string, skip: boolean) => change(id, { skip }), [change]);
  // Back where the person was when they asked for more (the board, an item); a page opened by its
  // address has nowhere to go back to in the board, so the board.
  const back = () => void (location.key === 'default' ? navigate('/') : navigate(-1));

  return (
    <section className="page new-item" aria-labelledby="new-item-title">
      <nav className="muted small">
        <Link to="/">Board</Link> / new work item
      </nav>
      <header className="new-item-head">
        <h1 id="new-item-title">New work item</h1>
        <div className="new-item-moves">
          <button
            type="button"
            className="link"
            onClick={() => {
              back();
              onFewer();
            }}
          >
            Fewer options
          </button>
          <button
            type="button"
            onClick={() => {
              resetDraft();
              back();
            }}
          >
            Discard
          </button>
        </div>
      </header>
      <form className="composer new-item-form" {...formKeys(c)}>
        <div className="new-item-grid">
          <div className="new-item-fields">
            <BasicFields c={c} autoFocus={c.d.title === ''} />
          </div>
          <div className="new-item-fields">
            <ItemOptions c={c} />
          </div>
        </div>
        <h2 className="new-item-chain">
          Chain <code>{chain || '…'}</code>
        </h2>
        {resolved.isError && <p role="alert">{resolved.error.message}</p>}
        {node && (
          <div className="chain-area">
            <PlanGraph
              key={chain}
              nodes={nodes}
              plans={plans}
              choices={choices}
              selected={node.id}
              onSelect={setPicked}
              onSkip={onSkip}
            />
            <div className="node-side">
              {/* The graph's nodes by name too: from the keyboard, and on a phone whose graph pans. */}
              <label className="node-pick">
                Node
                <select value={node.id} onChange={(e) => setPicked(e.target.value)}>
                  {nodes.map((n) => (
                    <option key={n.id} value={n.id}>
                      {n.id}
                      {plans.get(n.id)?.state === 'skipped' ? ' (skipped)' : ''}
                    </option>
                  ))}
                </select>
              </label>
              <NodeOptions
                node={node}
                plan={plans.get(node.id) ?? { state: 'runs' }}
                choice={choices[node.id] ?? {}}
                onChange={(patch) => change(node.id, patch)}
              />
            </div>
          </div>
        )}
        <EffortList />
        <footer className="new-item-foot">
          <DryLine c={c} />
          {c.error && <p role="alert">{c.error}</p>}
          <div className="buttons">
            <CreateButtons c={c} />
          </div>
        </footer>
      </form>
    </section>
  );
}
