import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { AddedNode, ItemDraftOp } from '../../../../src/contract/items/draft.js';
import { ApiError, callRoute, routes, type Item } from '../../api.js';
import { refreshItem } from '../../item-cache.js';
import { itemDraftQuery } from '../../queries.js';
import { AddNode } from './add-node.js';
import { canDraft, useItemDraft } from './draft-query.js';
import { NodeEdits } from './node-edits.js';
import { addPoints, bare, describeOp, editableNodes } from './ops.js';
import './draft.css';

const usd = (n: number) => `$${n.toFixed(2)}`;

/**
 * The item's draft: changes to the part of its own chain it has not run yet (add a library node,
 * remove, skip, override), stored on the server op by op, checked there (budget, estimates,
 * problems) and applied all at once.
 */
export function DraftPanel({ item }: { item: Item }) {
  const client = useQueryClient();
  const draft = useItemDraft(item);
  const draftQuery = itemDraftQuery(item);
  const params = { id: item.id };
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  // Each save sends the whole op list: a second edit made before the first one's answer would be
  // built without it and replace it, so edits wait for the answer.
  const [busy, setBusy] = useState(false);
  if (item.started_at === null)
    return (
      <section className="draft-panel" aria-labelledby="draft-title">
        <h2 id="draft-title">Draft</h2>
        <p className="muted">
          The item's own chain is frozen when it starts; its draft can be edited from then on.
        </p>
      </section>
    );
  if (!canDraft(item)) return null;
  const d = draft.data;
  const ops = (d?.ops ?? []).map(bare);

  const refused = (e: unknown) => {
    setError((e as Error).message);
    return false;
  };
  const save = async (next: ItemDraftOp[]): Promise<boolean> => {
    setError(null);
    setNote(null);
    setBusy(true);
    try {
      const saved = await callRoute(routes.putItemDraft, { params, body: { ops: next } });
      client.setQueryData(draftQuery.queryKey, saved);
      return true;
    } catch (e) {
      return refused(e);
    } finally {
      setBusy(false);
    }
  };
  const apply = async () => {
    setError(null);
    setNote(null);
    try {
      client.setQueryData(draftQuery.queryKey, await callRoute(routes.applyItemDraft, { params }));
      setNote('Applied: the item runs the revised chain from its next node.');
      await refreshItem(client, item.id);
    } catch (e) {
      refused(e);
      // A refused apply writes nothing; the draft's own marks (passed, problems) say why.
      if (e instanceof ApiError) await client.invalidateQueries({ queryKey: draftQuery.queryKey });
    }
  };
  const discard = async () => {
    setError(null);
    setNote(null);
    try {
      await callRoute(routes.deleteItemDraft, { params });
      setNote('Discarded.');
      await client.invalidateQueries({ queryKey: draftQuery.queryKey });
    } catch (e) {
      refused(e);
    }
  };

  const editable = d ? editableNodes(d.nodes, item.current_node) : new Set<string>();
  const problemsOf = (i: number) => (d?.problems ?? []).filter((p) => p.op === i);
  return (
    <section className="draft-panel" aria-labelledby="draft-title">
      <h2 id="draft-title">Draft</h2>
      <p className="muted small">
        Change the part of this item's chain it has not run yet. Nothing changes until you apply; the chain
        file is left as it is.
      </p>
      {draft.isPending && <p className="muted">Loading the draft…</p>}
      {draft.isError && <p role="alert">The draft could not load: {draft.error.message}</p>}
      {d && (
        <fieldset className="draft-body" disabled={busy} aria-busy={busy}>
          <div>
            <h3>The chain with the draft</h3>
            <ol className="draft-nodes">
              {d.nodes.map((n) => (
                <NodeEdits
                  key={n.id}
                  node={n}
                  editable={editable.has(n.id)}
                  onOp={(op) => save([...ops, op])}
                />
              ))}
            </ol>
            <AddNode
              nodes={d.nodes}
              points={addPoints(d.nodes, item.current_node)}
              onAdd={(after: string, node: AddedNode) => save([...ops, { op: 'add_node', after, node }])}
            />
          </div>
          <div>
            <h3>Changes not applied</h3>
            {ops.length === 0 ? (
              <p className="muted">None.</p>
            ) : (
              <ol className="draft-ops" aria-label="Changes not applied">
                {(d.ops ?? []).map((op, i) => (
                  <li key={i}>
                    {describeOp(bare(op))}
                    {op.passed && (
                      <span className="chip chip-warn">passed: the item has reached it; drop it</span>
                    )}
                    {problemsOf(i).map((p) => (
                      <p key={p.message} className="draft-problem">
                        {p.message}
                      </p>
                    ))}
                    <button
                      type="button"
                      className="link"
                      onClick={() => void save(ops.filter((_, j) => j !== i))}
                      aria-label={`Drop: ${describeOp(bare(op))}`}
                    >
                      Drop
                    </button>
                  </li>
                ))}
              </ol>
            )}
            <h3>Checks</h3>
            <dl className="draft-checks" aria-label="Checks">
              <dt>Budget</dt>
              <dd>
                {usd(d.checks.budget.spent_usd)} spent
                {d.checks.budget.cap_usd !== null ? ` of ${usd(d.checks.budget.cap_usd)}` : ', no cap'}
              </dd>
              {d.checks.added.map((a) => (
                <div key={a.op}>
                  <dt>
                    Adds <code>{a.node}</code>
                  </dt>
                  <dd>
                    {a.estimate_usd !== null && a.estimate_runs !== null
                      ? `about ${usd(a.estimate_usd)} (the average of ${a.estimate_runs} item${a.estimate_runs === 1 ? '' : 's'})`
                      : 'no estimate: no other item ran a node of this id'}
                    {' · '}
                    {a.harnesses.length > 0 ? `runs on ${a.harnesses.join(', ')}` : 'no agent'}
                  </dd>
                </div>
              ))}
              <dt>Problems</dt>
              <dd>{d.problems.length === 0 ? 'none' : `${d.problems.length}, shown at their changes`}</dd>
            </dl>
            <div className="buttons">
              <button
                type="button"
                className="primary"
                disabled={ops.length === 0}
                onClick={() => void apply()}
              >
                Apply the draft
              </button>
              <button type="button" disabled={d.updated_at === null} onClick={() => void discard()}>
                Discard the draft
              </button>
            </div>
          </div>
        </fieldset>
      )}
      {error && <p role="alert">{error}</p>}
      {note && <p role="status">{note}</p>}
    </section>
  );
}
