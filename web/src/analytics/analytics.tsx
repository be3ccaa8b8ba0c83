import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import type { AnalyticsGroup, AnalyticsRow } from '../../../src/contract/analytics.js';
import { analyticsQuery } from '../queries.js';
import { BarChart } from './bars.js';
import { count, duration, percent, usd } from './figures.js';
import './analytics.css';

/** The groupings offered, in the order a person asks for them (every one the route takes). */
const GROUPS: { group: AnalyticsGroup; label: string }[] = [
  { group: 'node', label: 'Node' },
  { group: 'repo', label: 'Repository' },
  { group: 'model', label: 'Model' },
  { group: 'week', label: 'Week' },
  { group: 'chain', label: 'Chain' },
  { group: 'harness', label: 'Harness' },
  { group: 'day', label: 'Day' },
];

const tokensOf = (r: AnalyticsRow) =>
  r.tokens.input + r.tokens.output + r.tokens.cache_read + r.tokens.cache_write;

/**
 * Analytics: what the work cost, from the analytics route — cost and tokens per node, repository,
 * model, week (and chain, harness, day) as bar charts with the same figures in a table, the totals,
 * and how each node's runs ended. The grouping and range live in the address, so a view can be shared.
 */
export default function Analytics() {
  const [params, setParams] = useSearchParams();
  const picked = params.get('group_by');
  const group = GROUPS.find((g) => g.group === picked) ?? GROUPS[0]!;
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };
  const answer = useQuery(analyticsQuery({ group: group.group, from, to }));
  const a = answer.data;
  return (
    <section className="page analytics" aria-labelledby="analytics-title">
      <h1 id="analytics-title">Analytics</h1>
      <p className="muted">
        What the work cost, from the sessions Jig stored: reported by the agent CLIs, or estimated from the
        price table for those that report none.
      </p>
      <div className="analytics-filters">
        <div role="tablist" aria-label="Group by" className="tabs">
          {GROUPS.map((g) => (
            <button
              key={g.group}
              type="button"
              role="tab"
              aria-selected={g.group === group.group}
              onClick={() => set('group_by', g.group)}
            >
              {g.label}
            </button>
          ))}
        </div>
        <label>
          From <input type="date" value={from} onChange={(e) => set('from', e.target.value)} />
        </label>
        <label>
          To <input type="date" value={to} onChange={(e) => set('to', e.target.value)} />
        </label>
      </div>
      {answer.isPending && <p className="muted">Loading…</p>}
      {answer.isError && <p role="alert">{answer.error.message}</p>}
      {a && (
        <>
          <p className="muted small">
            Sessions started from {new Date(a.from).toLocaleString()} to {new Date(a.to).toLocaleString()}
            {!from && !to ? ' (the last 30 days)' : ''}.
          </p>
          <dl className="analytics-totals" aria-label="Totals">
            <div>
              <dt>Cost</dt>
              <dd>{usd(a.totals.cost_usd)}</dd>
            </div>
            <div>
              <dt>Reported / estimated</dt>
              <dd>
                {usd(a.totals.cost_reported_usd)} / {usd(a.totals.cost_estimated_usd)}
              </dd>
            </div>
            <div>
              <dt>Tokens in / out</dt>
              <dd>
                {count(a.totals.tokens.input)} / {count(a.totals.tokens.output)}
              </dd>
            </div>
            <div>
              <dt>Sessions</dt>
              <dd>
                {a.totals.sessions} for {a.totals.items} item{a.totals.items === 1 ? '' : 's'}
              </dd>
            </div>
            <div>
              <dt>Run time</dt>
              <dd>{duration(a.totals.run_time_s)}</dd>
            </div>
            {a.totals.unpriced_sessions > 0 && (
              <div>
                <dt>Unpriced</dt>
                <dd>{a.totals.unpriced_sessions} agent sessions of unknown cost, not in the figures</dd>
              </div>
            )}
          </dl>
          <div className="analytics-charts">
            <BarChart
              title={`Cost by ${group.label.toLowerCase()}`}
              bars={a.rows.map((r) => ({ label: r.key, value: r.cost_usd }))}
              format={usd}
            />
            <BarChart
              title={`Tokens by ${group.label.toLowerCase()}`}
              bars={a.rows.map((r) => ({ label: r.key, value: tokensOf(r) }))}
              format={count}
            />
          </div>
          <FiguresTable label={group.label} rows={a.rows} />
          <h2>How nodes ended</h2>
          {a.nodes.length === 0 ? (
            <p className="muted">No node ran in this range.</p>
          ) : (
            <table className="analytics-table" aria-label="How nodes ended">
              <thead>
                <tr>
                  <th scope="col">Node</th>
                  <th scope="col">Runs</th>
                  <th scope="col">Completed</th>
                  <th scope="col">Stopped for a person</th>
                  <th scope="col">Success</th>
                </tr>
              </thead>
              <tbody>
                {a.nodes.map((n) => (
                  <tr key={n.node}>
                    <th scope="row">{n.node}</th>
                    <td>{n.runs}</td>
                    <td>{n.completed}</td>
                    <td>{n.stopped}</td>
                    <td>{percent(n.success_rate)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}

function FiguresTable({ label, rows }: { label: string; rows: AnalyticsRow[] }) {
  if (rows.length === 0) return <p className="muted">No session started in this range.</p>;
  return (
    <div className="analytics-scroll">
      <table className="analytics-table" aria-label={`Spend by ${label.toLowerCase()}`}>
        <thead>
          <tr>
            <th scope="col">{label}</th>
            <th scope="col">Cost</th>
            <th scope="col">Reported</th>
            <th scope="col">Estimated</th>
            <th scope="col">Tokens in</th>
            <th scope="col">Tokens out</th>
            <th scope="col">Cache read / write</th>
            <th scope="col">Sessions</th>
            <th scope="col">Items</th>
            <th scope="col">Run time</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key}>
              <th scope="row">{r.key}</th>
              <td>
                {usd(r.cost_usd)}
                {r.unpriced_sessions > 0 && (
                  <span className="muted small" title="agent sessions of unknown cost">
                    {' '}
                    +{r.unpriced_sessions} unpriced
                  </span>
                )}
              </td>
              <td>{usd(r.cost_reported_usd)}</td>
              <td>{usd(r.cost_estimated_usd)}</td>
              <td>{count(r.tokens.input)}</td>
              <td>{count(r.tokens.output)}</td>
              <td>
                {count(r.tokens.cache_read)} / {count(r.tokens.cache_write)}
              </td>
              <td>{r.sessions}</td>
              <td>{r.items}</td>
              <td>{duration(r.run_time_s)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
