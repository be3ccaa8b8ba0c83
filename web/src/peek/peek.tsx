import { useQuery, useQueryClient } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { callRoute, routes, type Item } from '../api.js';
import { age, reasonOf } from '../board/groups.js';
import { StartButton } from '../item/draft/start-ask.js';
import { DependencyArrows } from '../item/dependencies.js';
import { mainMove, makeMove, type Move } from '../item/moves.js';
import { putItem } from '../item-cache.js';
import { itemEventsQuery, itemQuery } from '../queries.js';
import { RichText } from '../item/rich-text.js';

type Tab = 'overview' | 'activity' | 'config';

function Budget({ item }: { item: Item }) {
  const client = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const cap = item.budget_cap.cap_usd;
  const save = async () => {
    setError(null);
    try {
      const raised = await callRoute(routes.raiseBudget, {
        params: { id: item.id },
        body: { cap_usd: Number(value) },
      });
      setEditing(false);
      await putItem(client, raised);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <div>
      <dt>Budget</dt>
      <dd>
        ${item.spent_usd.toFixed(2)} spent
        {cap !== null
          ? ` of $${cap.toFixed(2)} (${item.budget_cap.key === 'item' ? "the item's cap" : "policy's cap, the lower one"})`
          : ', no cap'}{' '}
        {!editing && (
          <button
            type="button"
            className="link"
            onClick={() => setEditing(true)}
            aria-label="Edit the budget"
          >
            ✎
          </button>
        )}
        {editing && (
          <form
            className="inline-dialog"
            onSubmit={(e) => {
              e.preventDefault();
              void save();
            }}
          >
            <label>
              New cap in dollars{' '}
              <input
                type="number"
                min={0}
                step="0.5"
                required
                value={value}
                onChange={(e) => setValue(e.target.value)}
              />
            </label>
            <button type="submit">Raise</button>
            <button type="button" onClick={() => setEditing(false)}>
              Keep
            </button>
          </form>
        )}
        {error && <p role="alert">{error}</p>}
      </dd>
    </div>
  );
}

/** The side panel of the board: an item at a glance, without leaving the list. */
export function Peek({ id, onClose }: { id: string; onClose: () => void }) {
  const client = useQueryClient();
  const [tab, setTab] = useState<Tab>('overview');
  const [error, setError] = useState<string | null>(null);
  const item = useQuery(itemQuery(id));
  const events = useQuery({ ...itemEventsQuery(id, 50), enabled: tab === 'activity' });
  const it = item.data;
  const move = async (m: Move) => {
    setError(null);
    try {
      await makeMove(client, id, m);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const main = it ? mainMove(it) : null;
  return (
    <aside className="peek" aria-label="Peek" onKeyDown={(e) => e.key === 'Escape' && onClose()}>
      <header className="peek-head">
        <h2>{it?.title ?? id}</h2>
        <button type="button" className="icon" onClick={onClose} aria-label="Close the panel">
          <X size={16} aria-hidden />
        </button>
      </header>
      {item.isError && <p role="alert">{item.error.message}</p>}
      {it && (
        <>
          <div className="peek-actions">
            {main &&
              (main.move === 'resume' ? (
                <StartButton item={it} className="primary" go={() => move(main.move)}>
                  {main.label}
                </StartButton>
              ) : (
                <button type="button" className="primary" onClick={() => void move(main.move)}>
                  {main.label}
                </button>
              ))}
            {it.status === 'stopped' && it.stop?.kind === 'gate' && (
              <Link className="button primary" to={`/work-items/${it.id}`}>
                Review
              </Link>
            )}
            <Link className="button" to={`/work-items/${it.id}`}>
              Open full page
            </Link>
          </div>
          {error && <p role="alert">{error}</p>}
          <div role="tablist" className="tabs">
            {(['overview', 'activity', 'config'] as const).map((t) => (
              <button key={t} type="button" role="tab" aria-selected={tab === t} onClick={() => setTab(t)}>
                {t === 'overview' ? 'Overview' : t === 'activity' ? 'Activity' : 'Config'}
              </button>
            ))}
          </div>
          {tab === 'overview' && (
            <dl role="tabpanel" aria-label="Overview">
              <dt>Status</dt>
              <dd>
                {it.display_status.replace('_', ' ')}
                {reasonOf(it) ? ` — ${reasonOf(it)}` : ''}
                {it.stop?.reason && it.stop.kind !== 'gate' ? `: ${it.stop.reason}` : ''}
              </dd>
              <dt>Where</dt>
              <dd>
                {it.chain} · {it.current_node ?? 'not started'} · <code>{it.id}</code>
              </dd>
              {((it.dependencies ?? []).length > 0 || (it.dependents ?? []).length > 0) && (
                <>
                  <dt>Order</dt>
                  <dd>
                    <DependencyArrows item={it} />
                  </dd>
                </>
              )}
              <dt>Repository</dt>
              <dd>{it.repo}</dd>
              <dt>Filed</dt>
              <dd>{age(it.created_at, Date.now())} ago</dd>
              {it.description && (
                <>
                  <dt>Brief</dt>
                  <dd>
                    <RichText className="brief" text={it.description} />
                  </dd>
                </>
              )}
            </dl>
          )}
          {tab === 'activity' && (
            <ol role="tabpanel" aria-label="Activity" className="activity">
              {(events.data?.events ?? [])
                .slice()
                .reverse()
                .map((e) => (
                  <li key={e.seq}>
                    <span className="muted small">{new Date(e.at).toLocaleTimeString()}</span>{' '}
                    {e.type.replace(/_/g, ' ')}
                    {e.node ? ` · ${e.node}` : ''}
                  </li>
                ))}
            </ol>
          )}
          {tab === 'config' && (
            <dl role="tabpanel" aria-label="Config">
              <Budget item={it} />
              <dt>Model overrides</dt>
              <dd>
                {Object.keys(it.agent_overrides).length > 0 ? JSON.stringify(it.agent_overrides) : 'none'}
              </dd>
              <dt>Nodes skipped when filed</dt>
              <dd>{it.skip_nodes.length > 0 ? it.skip_nodes.join(', ') : 'none'}</dd>
              <dt>Base branch</dt>
              <dd>{it.base_branch ?? "the repository's"}</dd>
            </dl>
          )}
        </>
      )}
    </aside>
  );
}
