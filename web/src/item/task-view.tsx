import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { ModelTask } from '../../../src/contract/config/chain-model.js';
import type { Session } from '../../../src/contract/routes/work-items/sessions.js';
import { callRoute, routes, type Item } from '../api.js';
import { itemSessionsQuery } from '../queries.js';

type Tab = 'overview' | 'input' | 'output' | 'log' | 'config';

const TAB_LABEL: Record<Tab, string> = {
  overview: 'Overview',
  input: 'Input',
  output: 'Output',
  log: 'Log',
  config: 'Config',
};

/** A session's dollars and where they come from; a CLI that tells no usage is unpriced, never $0. */
function costText(s: Session): string {
  if (s.cost_usd === null) {
    if (s.status === 'running') return '';
    const t = s.tokens;
    return t.input + t.output + t.cache_read + t.cache_write > 0
      ? ' · unpriced (its model is not in the price table)'
      : ' · unpriced (the CLI reported no usage)';
  }
  const how = { reported: '', estimated: ' (estimated)', per_launch: ' (per launch)' } as const;
  return ` · $${s.cost_usd.toFixed(4)}${s.cost_source ? how[s.cost_source] : ''}`;
}

/** How many tool calls the CLI's stream showed (0 where its reader does not count them). */
function toolCalls(s: Session): string {
  const n = s.readout?.tool_calls;
  return typeof n === 'number' && n > 0 ? ` · ${n} tool call${n === 1 ? '' : 's'}` : '';
}

/** The session's output as it grows: read from where the last read ended, every second while it runs. */
function LiveLog({ item, session }: { item: Item; session: Session }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const running = session.status === 'running';
  useEffect(() => {
    let offset = 0;
    let stopped = false;
    let timer: number | undefined;
    const read = async () => {
      try {
        const chunk = await callRoute(routes.readSessionLog, {
          params: { id: item.id, session: session.id },
          query: { offset },
        });
        offset += new TextEncoder().encode(chunk).length;
        if (!stopped && chunk) setText((t) => t + chunk);
      } catch (e) {
        if (!stopped) setError((e as Error).message);
      }
      if (!stopped && running) timer = window.setTimeout(() => void read(), 1000);
    };
    setText('');
    void read();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [item.id, session.id, running]);
  return (
    <>
      {error && <p role="alert">The log could not be read: {error}</p>}
      <pre className="log" aria-label="Log" aria-live={running ? 'polite' : 'off'}>
        {text || (running ? 'waiting for output…' : '(empty)')}
      </pre>
    </>
  );
}

/** What the task was given: the command line of its last run, else what the chain says it runs. */
function Input({ task, session }: { task: ModelTask; session: Session | undefined }) {
  if (session && session.argv.length > 0)
    return (
      <ol className="argv" aria-label="Command line">
        {session.argv.map((a, i) => (
          <li key={i}>
            <code>{a}</code>
          </li>
        ))}
      </ol>
    );
  if (task.kind === 'agent') return <pre className="doc-text">{task.prompt}</pre>;
  return <p className="muted">It has not run yet.</p>;
}

/** One task of the chain: its last run's overview, input, output (the result file) and log. */
export function TaskView({ item, task }: { item: Item; task: ModelTask }) {
  const [tab, setTab] = useState<Tab>('overview');
  const sessions = useQuery(itemSessionsQuery(item.id));
  const runs = (sessions.data?.sessions ?? []).filter((s) => s.task_path === task.path);
  const last = runs[runs.length - 1];
  return (
    <section className="task-view" aria-label={`Task ${task.path}`}>
      <h4>
        <code>{task.path}</code> <span className="muted">({task.kind})</span>
      </h4>
      <div role="tablist" className="tabs">
        {(['overview', 'input', 'output', 'log', 'config'] as const).map((t) => (
          <button key={t} type="button" role="tab" aria-selected={tab === t} onClick={() => setTab(t)}>
            {TAB_LABEL[t]}
          </button>
        ))}
      </div>
      {tab === 'overview' &&
        (last ? (
          <dl role="tabpanel" aria-label="Overview">
            <dt>Last run</dt>
            <dd>
              {last.status}
              {last.exit_code !== null ? `, exit ${last.exit_code}` : ''} · run {runs.length} time
              {runs.length === 1 ? '' : 's'}
            </dd>
            <dt>Started</dt>
            <dd>{new Date(last.started_at).toLocaleString()}</dd>
            {last.harness && (
              <>
                <dt>Agent</dt>
                <dd>
                  {last.harness} · {last.model ?? 'default model'} · {last.tokens.input + last.tokens.output}{' '}
                  tokens
                  {toolCalls(last)}
                  {costText(last)}
                </dd>
              </>
            )}
            {last.note && (
              <>
                <dt>Note</dt>
                <dd>{last.note}</dd>
              </>
            )}
          </dl>
        ) : (
          <p className="muted">It has not run yet.</p>
        ))}
      {tab === 'input' && <Input task={task} session={last} />}
      {tab === 'output' &&
        (last?.result ? (
          <pre className="log" aria-label="Result file">
            {JSON.stringify(last.result, null, 2)}
          </pre>
        ) : (
          <p className="muted">{last ? 'It wrote no result file.' : 'It has not run yet.'}</p>
        ))}
      {tab === 'log' &&
        (last ? <LiveLog item={item} session={last} /> : <p className="muted">It has not run yet.</p>)}
      {tab === 'config' && (
        // The task as the chain resolved it (library defaults and extends applied).
        <pre className="log" aria-label="Task config">
          {JSON.stringify(task, null, 2)}
        </pre>
      )}
    </section>
  );
}
