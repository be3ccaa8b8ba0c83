import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { z } from 'zod';
import type { CreateItemBody, DryRunAnswer } from '../../../src/contract/items.js';
import type { ReposAnswer } from '../../../src/contract/repos.js';
import { plural } from '../words.js';
import { AfterPicker } from './after-picker.js';
import { callRoute, routes, type Item } from '../api.js';
import { chainsQuery, keys, reposQuery } from '../queries.js';

type DryRun = z.infer<typeof DryRunAnswer>;
type Body = z.input<typeof CreateItemBody>;
type Repos = z.infer<typeof ReposAnswer>;

interface Draft {
  title: string;
  description: string;
  repo: string;
  /** The members left out of a workspace item (every member runs unless unticked). */
  unticked: string[];
  chain: string;
  spec: string | null;
  plan: string | null;
  /** Items it comes after (their ids). */
  after: string[];
}

/** A workspace is offered by name, which the API takes as `repo`; a repository by its path. */
type Workspace = Repos['workspaces'][number];

/** The create body as the API takes it; `members` only when some are left out (default all). */
function body(d: Draft, start: boolean, ws: Workspace | undefined): Body {
  const attachments: Record<string, { text: string }> = {};
  if (d.spec?.trim()) attachments.spec = { text: d.spec };
  if (d.plan?.trim()) attachments.plan = { text: d.plan };
  const members = ws?.members.map((m) => m.name).filter((m) => !d.unticked.includes(m)) ?? [];
  return {
    title: d.title,
    description: d.description,
    repo: d.repo,
    ...(ws && d.unticked.length > 0 ? { members } : {}),
    ...(d.chain ? { chain: d.chain } : {}),
    start,
    ...(Object.keys(attachments).length > 0 ? { attachments } : {}),
    ...(d.after.length > 0 ? { after: d.after } : {}),
  };
}

/**
 * The new-item composer (button or `c`): title, brief, repo, chain, an attached spec or plan, and
 * the server's dry run as one live line ("5 of 8 nodes run · 2 gates"), then Create paused or
 * Create and start (Ctrl/⌘+Enter).
 */
export function Composer({ onClose, onCreated }: { onClose: () => void; onCreated: (item: Item) => void }) {
  const client = useQueryClient();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);
  const repos = useQuery(reposQuery());
  const chains = useQuery(chainsQuery());
  const enabled = (repos.data?.repos ?? []).filter((r) => r.enabled);
  const workspaces = (repos.data?.workspaces ?? []).filter((w) => w.ready);
  const [d, setD] = useState<Draft>({
    title: '',
    description: '',
    repo: '',
    unticked: [],
    chain: '',
    spec: null,
    plan: null,
    after: [],
  });
  const repo = d.repo || enabled[0]?.path || '';
  const draft = { ...d, repo };
  const ws = workspaces.find((w) => w.name === repo);
  const [dry, setDry] = useState<{ run?: DryRun; error?: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // The dry run follows the form, a moment after the last keystroke.
  const key = JSON.stringify(body(draft, false, ws));
  useEffect(() => {
    if (!draft.repo || !draft.title.trim()) return setDry(null);
    const t = window.setTimeout(() => {
      callRoute(routes.createItem, { query: { dry_run: '1' }, body: JSON.parse(key) as Body })
        .then((run) => setDry('dry_run' in run ? { run } : null))
        .catch((e: Error) => setDry({ error: e.message }));
    }, 250);
    return () => window.clearTimeout(t);
  }, [key]);

  const create = async (start: boolean) => {
    setBusy(true);
    setError(null);
    try {
      const item = await callRoute(routes.createItem, { body: body(draft, start, ws) });
      if ('dry_run' in item) throw new Error('the server answered a dry run');
      // A new item: the lists are read again to take it in.
      await client.invalidateQueries({ queryKey: keys.lists });
      onCreated(item);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setD((x) => ({ ...x, [k]: v }));
  const run = dry?.run?.would_file;
  const runs = run ? run.nodes.filter((n) => n.skipped === null) : [];
  return (
    <dialog
      ref={dialog}
      className="composer"
      aria-labelledby="composer-title"
      onClose={onClose}
      onCancel={onClose}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void create(false);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) {
            e.preventDefault();
            void create(true);
          }
        }}
      >
        <h2 id="composer-title">New work item</h2>
        <label>
          Title
          <input autoFocus required value={d.title} onChange={(e) => set('title', e.target.value)} />
        </label>
        <label>
          Brief
          <textarea rows={4} value={d.description} onChange={(e) => set('description', e.target.value)} />
        </label>
        <div className="two">
          <label>
            Repository
            <select
              value={repo}
              onChange={(e) => setD((x) => ({ ...x, repo: e.target.value, unticked: [] }))}
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
                .filter((c) => c.running)
                .map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.id} · {plural(c.nodes, 'node')} · {plural(c.gates, 'gate')}
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
        <p className="dry muted" role="status" aria-live="polite">
          {run
            ? `${runs.length} of ${run.nodes.length} nodes run · ${plural(run.gates.filter((g) => runs.some((n) => n.id === g)).length, 'gate')}${d.after.length > 0 ? ` · starts after ${plural(d.after.length, 'item')}` : ''}`
            : (dry?.error ?? (enabled.length === 0 ? 'Connect a repository first.' : ''))}
        </p>
        {error && <p role="alert">{error}</p>}
        <div className="buttons">
          <button type="button" onClick={onClose}>
            Close
          </button>
          <button type="submit" disabled={busy || !d.title.trim() || !repo}>
            Create paused
          </button>
          <button
            type="button"
            className="primary"
            disabled={busy || !d.title.trim() || !repo}
            onClick={() => void create(true)}
          >
            Create and start <kbd>Ctrl ↵</kbd>
          </button>
        </div>
      </form>
    </dialog>
  );
}
