import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { RepoView } from '../../../../src/contract/repos.js';
import { callRoute, routes } from '../../api.js';
import { chainsQuery, reposQuery } from '../../queries.js';

/** A connected repo's commands and default chain, saved with the repos PATCH (null clears a key). */
export function RepoEdit({ r, onDone }: { r: RepoView; onDone: () => void }) {
  const client = useQueryClient();
  const chains = useQuery(chainsQuery());
  const [tests, setTests] = useState(r.test_command ?? '');
  const [setup, setSetup] = useState(r.setup_command ?? '');
  const [noSetup, setNoSetup] = useState(r.setup_command === '');
  const [chain, setChain] = useState(r.default_chain);
  // Only what the person changed is sent: an undecided command stays undecided (an empty field is
  // not a decision until typed), and a default chain since deleted does not refuse other edits.
  const [touched, setTouched] = useState({ tests: false, setup: false });
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    setError(null);
    const body: Record<string, string> = {};
    if (touched.tests && tests !== r.test_command) body.test_command = tests;
    const nextSetup = noSetup ? '' : setup;
    if (touched.setup && nextSetup !== r.setup_command) body.setup_command = nextSetup;
    if (chain !== r.default_chain) body.default_chain = chain;
    if (Object.keys(body).length === 0) return onDone();
    try {
      await callRoute(routes.patchRepo, { query: { path: r.path }, body });
      await client.invalidateQueries({ queryKey: reposQuery().queryKey });
      onDone();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <form
      className="row-form"
      aria-label={`Edit ${r.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <label>
        Test command (empty: no tests)
        <input
          value={tests}
          onChange={(e) => {
            setTests(e.target.value);
            setTouched((t) => ({ ...t, tests: true }));
          }}
        />
      </label>
      <label>
        Setup command
        <input
          value={noSetup ? '' : setup}
          disabled={noSetup}
          onChange={(e) => {
            setSetup(e.target.value);
            setTouched((t) => ({ ...t, setup: true }));
          }}
        />
      </label>
      <label>
        <span>
          <input
            type="checkbox"
            checked={noSetup}
            onChange={(e) => {
              setNoSetup(e.target.checked);
              setTouched((t) => ({ ...t, setup: true }));
            }}
          />{' '}
          No setup needed
        </span>
      </label>
      <label>
        Default chain
        <select value={chain} onChange={(e) => setChain(e.target.value)}>
          {!(chains.data?.chains ?? []).some((c) => c.id === chain) && <option>{chain}</option>}
          {(chains.data?.chains ?? []).map((c) => (
            <option key={c.id}>{c.id}</option>
          ))}
        </select>
      </label>
      <button type="submit" className="primary">
        Save {r.name}
      </button>
      <button type="button" onClick={onDone}>
        Cancel
      </button>
      {error && <p role="alert">{error}</p>}
    </form>
  );
}
