import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { reposQuery, resolvedChainQuery, steeringPreviewQuery, type SteeringAsk } from '../../queries.js';
import { agentTasks } from './chain-tasks.js';

/*
 * What one agent task of a chain reads at launch (Jig's contract, the repo's steering, the task's),
 * from the steering preview route, for the chains that use the component shown.
 */

export function SteeringPreview({ chains }: { chains: readonly string[] }) {
  const [chain, setChain] = useState(chains[0] ?? '');
  const [task, setTask] = useState('');
  const [repo, setRepo] = useState('');
  const [shown, setShown] = useState<SteeringAsk | null>(null);
  const resolved = useQuery({ ...resolvedChainQuery(chain), enabled: chain !== '' });
  const repos = useQuery(reposQuery());
  const tasks = resolved.data ? agentTasks(resolved.data.resolved) : [];
  const pickedTask = tasks.includes(task) ? task : (tasks[0] ?? '');
  const preview = useQuery({ ...steeringPreviewQuery(shown), enabled: shown !== null });
  return (
    <section className="steering-preview" aria-labelledby="steering-preview-title">
      <h3 id="steering-preview-title">Steering preview</h3>
      <form
        className="row-form"
        onSubmit={(e) => {
          e.preventDefault();
          setShown({ chain, task: pickedTask, repo });
        }}
      >
        <label>
          Chain
          <select value={chain} onChange={(e) => setChain(e.target.value)}>
            {chains.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>
        <label>
          Agent task
          <select value={pickedTask} onChange={(e) => setTask(e.target.value)}>
            {tasks.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
        <label>
          Repository
          <select value={repo} onChange={(e) => setRepo(e.target.value)}>
            <option value="">none</option>
            {(repos.data?.repos ?? []).map((r) => (
              <option key={r.path} value={r.path}>
                {r.name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={pickedTask === ''}>
          Show what it reads
        </button>
      </form>
      {preview.error && <p role="alert">{preview.error.message}</p>}
      {preview.data && (
        <ol className="steering-parts" aria-label="What the task reads">
          {preview.data.parts.map((p, i) => (
            <li key={i}>
              <p>
                <span className="chip">{p.source}</span> <code>{p.origin}</code>
              </p>
              <pre className="yaml">{p.text}</pre>
            </li>
          ))}
          {preview.data.missing.map((m) => (
            <li key={`${m.source}-${m.name}`} className="problems">
              {m.source} steering <code>{m.name}</code> is not in the library: it adds nothing.
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
