import { useQuery } from '@tanstack/react-query';
import type { FormEvent, KeyboardEvent } from 'react';
import { chainsQuery } from '../queries.js';
import { plural } from '../words.js';
import { AfterPicker } from './after-picker.js';
import type { ComposerState } from './use-composer.js';

/**
 * What every new item says, in the dialog and on the full page alike: title, brief, repository or
 * workspace (with its members), chain, an attached spec or plan, and what it comes after.
 */
export function BasicFields({ c, autoFocus = true }: { c: ComposerState; autoFocus?: boolean }) {
  const { d, set, update, target } = c;
  const chains = useQuery(chainsQuery());
  const enabled = (c.repos.data?.repos ?? []).filter((r) => r.enabled);
  const workspaces = (c.repos.data?.workspaces ?? []).filter((w) => w.ready);
  const ws = target.workspace;
  return (
    <>
      <label>
        Title
        <input
          autoFocus={autoFocus}
          required
          value={d.title}
          onChange={(e) => set('title', e.target.value)}
        />
      </label>
      <label>
        Brief
        <textarea rows={4} value={d.description} onChange={(e) => set('description', e.target.value)} />
      </label>
      <div className="two">
        <label>
          Repository
          <select
            value={target.repo}
            onChange={(e) => update((x) => ({ ...x, repo: e.target.value, unticked: [] }))}
          >
            {enabled.map((r) => (
              <option key={r.path} value={r.path}>
                {r.name}
              </option>
            ))}
            {workspaces.length > 0 && (
              <optgroup label="Workspaces">
                {workspaces.map((w) => (
                  <option key={w.name} value={w.name}>
                    {w.name} · {plural(w.members.length, 'member')}
                  </option>
                ))}
              </optgroup>
            )}
          </select>
        </label>
        <label>
          Chain
          <select value={d.chain} onChange={(e) => set('chain', e.target.value)}>
            <option value="">the repository&apos;s default</option>
            {(chains.data?.chains ?? [])
              .filter((ch) => ch.running)
              .map((ch) => (
                <option key={ch.id} value={ch.id}>
                  {ch.id} · {plural(ch.nodes, 'node')} · {plural(ch.gates, 'gate')}
                </option>
              ))}
          </select>
        </label>
      </div>
      {ws && (
        <fieldset className="members">
          <legend>Members</legend>
          {ws.members.map((m) => (
            <label key={m.name} title={m.repo_path ?? m.repository}>
              <input
                type="checkbox"
                checked={!d.unticked.includes(m.name)}
                onChange={(e) =>
                  set(
                    'unticked',
                    e.target.checked ? d.unticked.filter((x) => x !== m.name) : [...d.unticked, m.name],
                  )
                }
              />
              {m.name} <span className="muted">{m.path}</span>
            </label>
          ))}
        </fieldset>
      )}
      <div className="attach">
        {(['spec', 'plan'] as const).map((k) =>
          d[k] === null ? (
            <button key={k} type="button" className="link" onClick={() => set(k, '')}>
              + {k}
            </button>
          ) : (
            <label key={k}>
              {k === 'spec' ? 'Spec' : 'Plan'} (Markdown)
              <textarea rows={4} value={d[k]} onChange={(e) => set(k, e.target.value)} />
            </label>
          ),
        )}
      </div>
      <AfterPicker value={d.after} onChange={(ids) => set('after', ids)} />
    </>
  );
}

/** The dry run as one line: "5 of 8 nodes run · 2 gates", or why it cannot be filed as it stands. */
export function DryLine({ c }: { c: ComposerState }) {
  const run = c.dry?.run?.would_file;
  const runs = run ? run.nodes.filter((n) => n.skipped === null) : [];
  const gates = run ? run.gates.filter((g) => runs.some((n) => n.id === g)).length : 0;
  const after = c.d.after.length;
  const none = (c.repos.data?.repos ?? []).every((r) => !r.enabled);
  return (
    <>
      <p className="dry muted" role="status" aria-live="polite">
        {run
          ? `${runs.length} of ${run.nodes.length} nodes run · ${plural(gates, 'gate')}${after > 0 ? ` · starts after ${plural(after, 'item')}` : ''}`
          : (c.dry?.error ?? (c.repos.isSuccess && none ? 'Connect a repository first.' : ''))}
      </p>
      {run && run.cannot_launch.length > 0 && <CannotLaunch problems={run.cannot_launch} />}
    </>
  );
}

/**
 * Said before Create, not a second after Start: the agent tasks this machine cannot launch, one line
 * per reason (the default chain's eight tasks on a machine without `claude` are one line).
 */
export function CannotLaunch({ problems }: { problems: { task: string; reason: string }[] }) {
  const byReason = new Map<string, string[]>();
  for (const p of problems) byReason.set(p.reason, [...(byReason.get(p.reason) ?? []), p.task]);
  return (
    <div className="dry cannot-launch" role="alert">
      <strong>{plural(problems.length, 'agent task')} cannot start on this machine:</strong>
      <ul>
        {[...byReason].map(([reason, tasks]) => (
          <li key={reason}>
            {reason} <span className="muted">({tasks.join(', ')})</span>
          </li>
        ))}
      </ul>
      <span className="muted">
        Install the agent CLI, or pick a chain that needs none (manual). Started as it is, the item stops at
        its first agent task.
      </span>
    </div>
  );
}

/** Create paused, and Create and start (also Ctrl/⌘+Enter anywhere in the form). */
export function CreateButtons({ c }: { c: ComposerState }) {
  return (
    <>
      <button type="submit" disabled={!c.ready}>
        Create paused
      </button>
      <button type="button" className="primary" disabled={!c.ready} onClick={() => void c.create(true)}>
        Create and start <kbd>Ctrl ↵</kbd>
      </button>
    </>
  );
}

/** The form's own keys: Enter submits (paused), Ctrl/⌘+Enter creates and starts. */
export const formKeys = (c: ComposerState) => ({
  onSubmit: (e: FormEvent) => {
    e.preventDefault();
    void c.create(false);
  },
  onKeyDown: (e: KeyboardEvent) => {
    if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) {
      e.preventDefault();
      void c.create(true);
    }
  },
});
