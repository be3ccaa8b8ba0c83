import { UnpricedNote } from './unpriced-note.js';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { EventsPage } from '../../../src/contract/events.js';
import { ApiError } from '../api.js';
import { reasonOf } from '../board/groups.js';
import { itemChainQuery, itemEventsQuery, itemQuery } from '../queries.js';
import { Brief } from './brief.js';
import { DependencyArrows } from './dependencies.js';
import { ChangeSize } from './changes.js';
import { DraftPanel } from './draft/draft-panel.js';
import { StartButton } from './draft/start-ask.js';
import { hasAgentTask } from './chain-agents.js';
import { GatePanel } from './gate-panel.js';
import { ItemBranches } from './item-branches.js';
import { Inspector } from './inspector.js';
import { ItemMenu } from './item-menu.js';
import { makeMove, MOVES, type Move } from './moves.js';
import { nodeStates, type NodeStatus } from './node-states.js';

// The graph library is the biggest part of this page: loaded with it, not with the board.
const ChainGraph = lazy(() => import('./chain-graph.js'));

/** A sentence per event for the activity list; the type itself when there is no better one. */
function describe(e: EventsPage['events'][number]): string {
  const p = e.payload;
  const node = typeof p.node === 'string' ? p.node : typeof p.gate === 'string' ? p.gate : e.node;
  switch (e.type) {
    case 'work_item_created':
      return 'filed';
    case 'node_started':
      return `started ${node ?? ''}`;
    case 'node_completed':
      return `finished ${node ?? ''}`;
    case 'node_skipped':
      return `skipped ${node ?? ''}${typeof p.note === 'string' ? ` (${p.note})` : ''}`;
    case 'gate_approved':
      return `approved ${node ?? ''}`;
    case 'gate_rejected':
      return `rejected ${node ?? ''}`;
    case 'worker_session_started': {
      const jail = p.sandbox;
      const task = typeof p.task === 'string' ? p.task : '';
      if (jail && typeof jail === 'object' && 'kind' in jail && 'network' in jail)
        return `started ${task} in a ${String(jail.kind)} sandbox (network: ${String(jail.network)})`;
      return `started ${task}`;
    }
    case 'sandbox_egress_denied': {
      const times = typeof p.count === 'number' && p.count > 1 ? `, ${p.count} times` : '';
      return `sandbox refused ${String(p.host)}:${String(p.port)} for ${String(p.task)}: ${String(p.reason)}${times}`;
    }
    default:
      return e.type.replace(/_/g, ' ');
  }
}

export function ItemPage() {
  const { id = '', node: linked } = useParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const item = useQuery(itemQuery(id));
  const events = useQuery(itemEventsQuery(id, 1000));
  const chain = useQuery({ ...itemChainQuery(id, item.data?.started_at ?? null), enabled: item.isSuccess });
  const [error, setError] = useState<string | null>(null);
  // A node's own address (`/work-items/ID/nodes/NODE`) opens the page with that node in the Inspector.
  const [picked, setPicked] = useState<string | null>(linked ?? null);
  const states = useMemo(
    () =>
      item.data && chain.data
        ? nodeStates(
            item.data,
            chain.data.nodes.map((n) => n.id),
            events.data?.events ?? [],
            Date.now(),
          )
        : new Map<string, NodeStatus>(),
    [item.data, chain.data, events.data],
  );
  if (item.isPending) return <p className="page muted">Loading…</p>;
  if (item.isError) {
    const e = item.error;
    return (
      <section className="page">
        <h1>{e instanceof ApiError && e.status === 404 ? 'No such work item' : 'The item could not load'}</h1>
        <p role="alert">{e.message}</p>
        <Link to="/">Back to the board</Link>
      </section>
    );
  }
  const it = item.data;
  const move = async (m: Move) => {
    setError(null);
    try {
      await makeMove(client, it.id, m);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const reason = reasonOf(it);
  const atGate = it.status === 'stopped' && it.stop?.kind === 'gate' && it.current_node;
  return (
    <section className="page item-page" aria-labelledby="item-title">
      <nav className="muted small">
        <Link to="/">Board</Link> / <code>{it.id}</code>
      </nav>
      <header className="item-head">
        <h1 id="item-title">{it.title}</h1>
        <div className="item-meta muted">
          <span className={`status status-${it.display_status}`}>{it.display_status.replace('_', ' ')}</span>{' '}
          · {it.chain} · {it.repo} · spent ${it.spent_usd.toFixed(2)}
          {it.budget_cap.cap_usd !== null ? ` of $${it.budget_cap.cap_usd.toFixed(2)}` : ''}
          <UnpricedNote itemId={it.id} />
          {it.has_worktree && (
            <>
              {' · '}
              <ChangeSize item={it} />
            </>
          )}
          {(it.merge_requests ?? []).map((mr) => (
            <span key={mr.repo}>
              {' · '}
              <a href={mr.url} target="_blank" rel="noreferrer noopener">
                merge request #{mr.number}
              </a>{' '}
              ({mr.draft && mr.state === 'open' ? 'draft' : mr.state})
            </span>
          ))}
          {(it.issues ?? []).map((issue) => (
            <span key={`${issue.tracker}:${issue.id}`} className="item-issue">
              {' · '}
              {issue.url ? (
                <a href={issue.url} target="_blank" rel="noreferrer noopener">
                  {issue.tracker} {issue.id}
                </a>
              ) : (
                <>
                  {issue.tracker} <code>{issue.id}</code>
                </>
              )}
              {issue.closing !== 'open' && ` (${issue.closing.replace('_', ' ')})`}
            </span>
          ))}
        </div>
        <Brief item={it} />
        <DependencyArrows item={it} />
        <div className="item-actions">
          {MOVES.filter((m) => m.when(it)).map((m) =>
            m.move === 'resume' ? (
              // Starting would run the chain without a draft not applied: asks first.
              <StartButton key={m.move} item={it} go={() => move(m.move)}>
                {it.started_at === null ? 'Start' : m.label}
              </StartButton>
            ) : (
              <button key={m.move} type="button" onClick={() => void move(m.move)}>
                {m.label}
              </button>
            ),
          )}
          {it.started_at !== null && (
            <Link className="button" to={`/work-items/${it.id}/review`}>
              Review changes
            </Link>
          )}
          <ItemMenu item={it} />
        </div>
        {error && <p role="alert">{error}</p>}
      </header>
      {atGate ? (
        <GatePanel
          item={it}
          gate={it.current_node!}
          targets={(() => {
            const nodes = chain.data?.nodes ?? [];
            const at = nodes.findIndex((n) => n.id === it.current_node);
            return nodes.slice(0, Math.max(0, at)).flatMap((n) => (n.kind === 'exec' ? [n.id] : []));
          })()}
          rejectTo={(() => {
            const g = chain.data?.nodes.find((n) => n.id === it.current_node);
            return g?.kind === 'gate' ? (g.reject_to ?? null) : null;
          })()}
          agents={hasAgentTask(chain.data?.nodes ?? [])}
        />
      ) : (
        reason && (
          <div className="banner" role="status">
            {reason}
            {it.stop?.reason ? `: ${it.stop.reason}` : ''}
          </div>
        )
      )}
      {it.status === 'completed' && <ItemBranches item={it} />}
      {chain.data && (
        <div className="chain-area">
          <Suspense fallback={<p className="muted">Drawing the chain…</p>}>
            <ChainGraph
              nodes={chain.data.nodes}
              states={states}
              selected={picked ?? it.current_node}
              onSelect={setPicked}
              onOpen={(node) => {
                setPicked(node);
                void navigate(`/work-items/${it.id}/nodes/${node}`, { replace: true });
              }}
            />
          </Suspense>
          {(() => {
            const shown =
              chain.data.nodes.find((n) => n.id === (picked ?? it.current_node)) ?? chain.data.nodes[0];
            return shown ? (
              <Inspector key={shown.id} item={it} node={shown} status={states.get(shown.id)} />
            ) : null;
          })()}
        </div>
      )}
      <DraftPanel item={it} />
      {chain.isError && <p role="alert">The chain could not load: {chain.error.message}</p>}
      <h2>Activity</h2>
      <ol className="activity">
        {(events.data?.events ?? [])
          .slice()
          .reverse()
          .map((e) => (
            <li key={e.seq}>
              <time className="muted small" dateTime={e.at}>
                {new Date(e.at).toLocaleTimeString()}
              </time>{' '}
              {describe(e)} <span className="muted small">by {e.by}</span>
            </li>
          ))}
      </ol>
    </section>
  );
}
