import type { AnswerOf } from '../../api.js';

/*
 * A chain test's report as the API answers it (docs/chain-tests.md, "The report"): ok or FAILED and
 * why the run ended, the path taken, the sessions, what it spent, each expectation, and a replay's
 * divergences when the script named a recording (`replay:`).
 */

export type ChainTestReport = AnswerOf<'testChain'>;

/** Dollars as the report reads them: cents, or four places for a fraction of a cent. */
export function dollars(n: number | null): string {
  if (n === null) return '—';
  return n > 0 && n < 0.01 ? `$${n.toFixed(4)}` : `$${n.toFixed(2)}`;
}

const tokens = (n: number) => (n === 1 ? '1 token' : `${n} tokens`);

export function ChainTestReportView({ report: r }: { report: ChainTestReport }) {
  return (
    <div className="ce-test-report" role="region" aria-label="Test report">
      <p className="ce-test-verdict">
        <span className={`chip ${r.ok ? 'ce-test-ok' : 'ce-test-failed'}`}>{r.ok ? 'ok' : 'FAILED'}</span>{' '}
        <span>ended: {r.ended}</span>
        {r.stop && <span className="muted"> — {r.stop.reason}</span>}
      </p>
      <h4>Path</h4>
      {r.path.length === 0 ? (
        <p className="muted">Nothing happened: the item did not start.</p>
      ) : (
        <table className="ce-table ce-test-table" aria-label="Path taken">
          <thead>
            <tr>
              <th scope="col">Node</th>
              <th scope="col">What happened</th>
            </tr>
          </thead>
          <tbody>
            {r.path.map((s, i) => (
              <tr key={i}>
                <td>{s.node === null ? <span className="muted">(item)</span> : <code>{s.node}</code>}</td>
                <td>{s.detail}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h4>Sessions</h4>
      {r.sessions.length === 0 ? (
        <p className="muted">No session ran.</p>
      ) : (
        <table className="ce-table ce-test-table" aria-label="Sessions">
          <thead>
            <tr>
              <th scope="col">Task</th>
              <th scope="col">Status</th>
              <th scope="col" className="ce-num">
                Cost
              </th>
              <th scope="col" className="ce-num">
                Tokens
              </th>
            </tr>
          </thead>
          <tbody>
            {r.sessions.map((s, i) => (
              <tr key={i}>
                <td>
                  <code>{s.task}</code> #{s.attempt}
                  {s.note && <span className="ce-desc">{s.note}</span>}
                </td>
                <td>{s.status}</td>
                <td className="ce-num">{dollars(s.cost_usd)}</td>
                <td className="ce-num">{s.tokens}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p>
        Spent: {dollars(r.spent_usd)}, {tokens(r.spent_tokens)}
      </p>
      <h4>Expectations</h4>
      {r.expectations.length === 0 ? (
        <p className="muted">None: the run only had to end.</p>
      ) : (
        <ul className="ce-test-expect" aria-label="Expectations">
          {r.expectations.map((e, i) => (
            <li key={i}>
              <span className={`chip ${e.ok ? 'ce-test-ok' : 'ce-test-failed'}`}>
                {e.ok ? 'ok' : 'failed'}
              </span>{' '}
              <code>{e.expect}</code> <span className="muted">was</span> {e.actual}
            </li>
          ))}
        </ul>
      )}
      {r.divergences.length > 0 && (
        <>
          <h4>Divergences from the recording</h4>
          <ul className="ce-test-expect" aria-label="Divergences">
            {r.divergences.map((d, i) => (
              <li key={i}>
                <span className="chip ce-test-failed">{d.kind}</span> {d.detail}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
