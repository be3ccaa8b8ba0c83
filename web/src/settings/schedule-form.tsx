import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { chainsQuery, reposQuery } from '../queries.js';

export interface NewSchedule {
  cron: string;
  repo: string;
  chain: string;
  title: string;
  description: string;
}

const EMPTY: NewSchedule = { cron: '', repo: '', chain: '', title: '', description: '' };

/**
 * A schedule of the intake draft, new (`add_schedule`) or changed (`set_schedule`, `initial` set).
 * Repository and chain are chosen from what is connected and what the library has; a cron the
 * server cannot read is the draft's problem, shown on the schedule's row.
 */
export function ScheduleForm({
  busy,
  add,
  initial,
  onCancel,
}: {
  busy: boolean;
  add: (s: NewSchedule) => Promise<boolean>;
  initial?: NewSchedule;
  onCancel?: () => void;
}) {
  const repos = useQuery(reposQuery());
  const chains = useQuery(chainsQuery());
  const [s, setS] = useState<NewSchedule>(initial ?? EMPTY);
  const targets = [
    ...(repos.data?.repos ?? []).map((r) => r.path),
    ...(repos.data?.workspaces ?? []).map((w) => w.name),
  ];
  // A schedule naming a repo that is no longer connected keeps it on offer: it is what is written.
  if (initial?.repo && !targets.includes(initial.repo)) targets.push(initial.repo);
  const what = initial ? `Edit schedule ${initial.title}` : 'Add a schedule';
  const repo = s.repo || targets[0] || '';
  const chain = s.chain || chains.data?.chains[0]?.id || '';
  const ready = s.cron.trim() !== '' && s.title.trim() !== '' && repo !== '' && chain !== '';

  return (
    <form
      className="schedule-form"
      aria-label={what}
      onSubmit={(e) => {
        e.preventDefault();
        void add({ ...s, repo, chain }).then((ok) => {
          if (ok && !initial) setS(EMPTY);
        });
      }}
    >
      <h3>{what}</h3>
      <label>
        Title
        <input value={s.title} onChange={(e) => setS({ ...s, title: e.target.value })} />
      </label>
      <label>
        Cron (UTC)
        <input
          value={s.cron}
          placeholder="0 9 * * 1-5"
          onChange={(e) => setS({ ...s, cron: e.target.value })}
        />
      </label>
      <label>
        Repository
        <select value={repo} onChange={(e) => setS({ ...s, repo: e.target.value })}>
          {targets.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </label>
      <label>
        Chain
        <select value={chain} onChange={(e) => setS({ ...s, chain: e.target.value })}>
          {(chains.data?.chains ?? []).map((c) => (
            <option key={c.id} value={c.id}>
              {c.id}
            </option>
          ))}
        </select>
      </label>
      <label className="wide">
        Description
        <textarea
          rows={2}
          value={s.description}
          onChange={(e) => setS({ ...s, description: e.target.value })}
        />
      </label>
      <div className="buttons">
        <button type="submit" disabled={busy || !ready}>
          {initial ? 'Save schedule' : 'Add schedule'}
        </button>
        {onCancel && (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        )}
        {targets.length === 0 && <span className="muted small">Connect a repository first.</span>}
      </div>
    </form>
  );
}
