import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { callRoute, routes } from '../api.js';
import { diagnosticsQuery, updateQuery } from '../queries.js';
import { diagnosticsText, updateLine, type Diagnostics, type UpdateState } from './diagnostics-text.js';
import './about.css';

/*
 * About, opened from the sidebar's foot: the version running and the one installed, the last
 * update check (a new one on request, with the command that applies what it found), the home and
 * the store, and Copy diagnostics, whose text is shown as well as copied: a browser may refuse the
 * clipboard (a page on plain http off loopback has none), and a person should see what they paste.
 */

const STORE_NAME = { sqlite: 'SQLite', postgres: 'PostgreSQL' } as const;

function VersionFacts({ d }: { d: Diagnostics }) {
  if (d.version === d.installed) return <dd>{d.version}, running and installed</dd>;
  return (
    <dd>
      {d.version} running, {d.installed} installed: restart to run it (<code>jig admin restart</code>)
    </dd>
  );
}

function UpdateFacts({ u, error }: { u: UpdateState; error: string | null }) {
  return (
    <dd>
      <span data-testid="about-update">{updateLine(u)}</span>
      {u.apply && (
        <div className="small">
          To apply it, run on the server&apos;s machine: <code>{u.apply}</code>
        </div>
      )}
      {error && (
        <div className="about-error small" role="alert">
          {error}
        </div>
      )}
    </dd>
  );
}

export function AboutDialog({ onClose }: { onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const client = useQueryClient();
  const diag = useQuery(diagnosticsQuery());
  const cached = useQuery(updateQuery());
  const [text, setText] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  useEffect(() => {
    if (ref.current && !ref.current.open) ref.current.showModal();
  }, []);
  const check = useMutation({
    mutationFn: () => callRoute(routes.checkUpdate, { body: { channel: 'stable' } }),
    // The check's answer is the cached one from now on: About and the diagnostics both show it.
    onSuccess: (answer) => {
      client.setQueryData(updateQuery().queryKey, answer);
      void client.invalidateQueries({ queryKey: diagnosticsQuery().queryKey });
    },
  });
  const d = diag.data;
  const update = cached.data ?? d?.update;

  const copy = async () => {
    if (!d || !update) return;
    const block = diagnosticsText(d, update, navigator.userAgent, new Date().toISOString());
    setText(block);
    try {
      await navigator.clipboard.writeText(block);
      setNote('Copied. Paste it into the bug report.');
    } catch {
      setNote('The browser refused the clipboard: select the text below and copy it.');
    }
  };

  return (
    <dialog ref={ref} className="about" aria-labelledby="about-title" onClose={onClose} onCancel={onClose}>
      <h2 id="about-title">About Jig</h2>
      {diag.isError && (
        <p className="about-error" role="alert">
          {diag.error.message}
        </p>
      )}
      {!d && !diag.isError && <p className="muted">Loading…</p>}
      {d && (
        <dl className="about-facts">
          <dt>Version</dt>
          <VersionFacts d={d} />
          <dt>Updates</dt>
          {update && <UpdateFacts u={update} error={check.error?.message ?? null} />}
          <dt>Home</dt>
          <dd>
            <code>{d.home}</code>
          </dd>
          <dt>Store</dt>
          <dd>
            {STORE_NAME[d.store.kind]} <code>{d.store.location}</code>
          </dd>
          <dt>Address</dt>
          <dd>
            {d.server.bind}:{d.server.port}
          </dd>
        </dl>
      )}
      <div className="buttons">
        <button type="button" disabled={check.isPending} onClick={() => check.mutate()}>
          {check.isPending ? 'Checking…' : 'Check for updates'}
        </button>
        <button type="button" disabled={!d || !update} onClick={() => void copy()}>
          Copy diagnostics
        </button>
        <button type="button" className="primary" onClick={() => ref.current?.close()}>
          Close
        </button>
      </div>
      {note && (
        <p className="muted small" role="status">
          {note}
        </p>
      )}
      {text && (
        <pre className="about-diagnostics" aria-label="Diagnostics" tabIndex={0}>
          {text}
        </pre>
      )}
    </dialog>
  );
}
