import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { ApiError, callRoute, routes, type Item } from '../api.js';
import { putItem, refreshItem } from '../item-cache.js';
import { gateDocQuery, itemDocumentsQuery } from '../queries.js';
import { ChangedFiles, OpenThreads, useOpenThreads } from './changes.js';
import { RichText } from './rich-text.js';

// The Markdown renderer and its sanitizer load with the first document, not with the board.
const Markdown = lazy(() => import('./markdown.js'));

/**
 * A gate waiting for this person: its document, the changed files, the open review threads,
 * Approve (off while a must-fix thread is open, as the server refuses it), and Reject with a note
 * (required: it is the next agent's steer) and, optionally, the node to go back to. A gate with
 * nothing before it (the item says so: `gate_reject_to` null) offers Cancel instead of Reject, as
 * the server refuses that reject.
 */
export function GatePanel({
  item,
  gate,
  targets,
  rejectTo,
  agents,
}: {
  item: Item;
  gate: string;
  /** The exec nodes before the gate: where a rejection may send the item. */
  targets: string[];
  /** The gate's own `reject_to` (else the server picks the nearest node before it). */
  rejectTo: string | null;
  /** Whether an agent runs in the item's chain: only then is a reject's note an agent's steer. */
  agents: boolean;
}) {
  const client = useQueryClient();
  // Asked only when a task wrote the gate's document: one it lacks is a 404 the console would show.
  const doc = useQuery({ ...gateDocQuery(item.id, gate), enabled: !!item.gate_document });
  // A document the gate shows but Jig will not read (too large, a link out): said, and not approved.
  const docs = useQuery(itemDocumentsQuery(item.id));
  const unreadable = docs.data?.documents.find((d) => d.gate === gate && d.problem !== null) ?? null;
  const threads = useOpenThreads(item);
  const open = threads.data?.threads ?? [];
  const mustFix = open.filter((t) => t.label === 'must-fix').length;
  const [rejecting, setRejecting] = useState(false);
  // Null (not absent): the item waits at a gate with nothing before it to send it back to.
  const nowhere = item.gate_reject_to === null;
  const [note, setNote] = useState('');
  const [target, setTarget] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The decision answers the request this page shows, never one that came after it.
  const seen = item.gate_request !== null ? { request: item.gate_request } : {};
  const params = { id: item.id, gate };
  const decide = async (send: () => Promise<Item>) => {
    setBusy(true);
    setError(null);
    try {
      const decided = await send();
      setRejecting(false);
      setNote('');
      await putItem(client, decided);
    } catch (e) {
      // The document changed under the person: show the new text; they approve again having read it.
      if (e instanceof ApiError && e.is('document_changed')) await doc.refetch();
      // Someone else decided first, or the gate asked again: show the item as it is now.
      if (e instanceof ApiError && e.is('gate_not_waiting')) await refreshItem(client, item.id);
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="gate" aria-labelledby="gate-title">
      <div className="banner banner-gate" id="gate-title" role="status">
        Waiting for your review at <code>{gate}</code>
      </div>
      {/* The gate's message (its `message`, or why it asks), often with `code` in it. */}
      {item.stop?.reason && <RichText className="gate-message" text={item.stop.reason} />}
      {doc.data ? (
        <article className="document" aria-label={`${doc.data.kind} document`}>
          <div className="muted small">{doc.data.path}</div>
          <Suspense fallback={<pre className="doc-text">{doc.data.text}</pre>}>
            <Markdown text={doc.data.text} />
          </Suspense>
        </article>
      ) : unreadable ? (
        <p role="alert" className="doc-problem">
          The {unreadable.kind} document cannot be shown: {unreadable.problem}. Approve waits until it can be
          read; reject to have it written again.
        </p>
      ) : (
        (!item.gate_document || doc.isSuccess) && <p className="muted">This gate shows no document.</p>
      )}
      <ChangedFiles item={item} />
      <OpenThreads threads={open} />
      <div className="gate-actions">
        <button
          type="button"
          className="primary"
          disabled={busy || mustFix > 0 || unreadable !== null}
          title={
            mustFix > 0
              ? 'A must-fix thread is open: resolve it or request changes'
              : unreadable
                ? 'The document cannot be read: it cannot be approved'
                : undefined
          }
          onClick={() =>
            void decide(() =>
              callRoute(routes.approveGate, {
                params,
                body: doc.data ? { ...seen, digest: doc.data.digest } : seen,
              }),
            )
          }
        >
          Approve
        </button>
        <button
          type="button"
          disabled={busy}
          onClick={() => setRejecting((r) => !r)}
          aria-expanded={rejecting}
        >
          {nowhere ? 'Cancel item…' : 'Reject…'}
        </button>
      </div>
      {nowhere && (
        <p className="muted small" role="note">
          Nothing runs before this gate, so a reject has nowhere to send the item back to: approve it, or
          cancel the item (its worktree and branch are kept).
        </p>
      )}
      {mustFix > 0 && (
        <p className="muted small" role="note">
          Approve waits while {mustFix === 1 ? 'a must-fix thread is' : `${mustFix} must-fix threads are`}{' '}
          open: resolve {mustFix === 1 ? 'it' : 'them'}, or reject to have the agent fix{' '}
          {mustFix === 1 ? 'it' : 'them'}.
        </p>
      )}
      {rejecting && nowhere && (
        <form
          className="reject-form"
          onSubmit={(e) => {
            e.preventDefault();
            const body = note.trim() ? { reason: note.trim() } : {};
            void decide(() => callRoute(routes.cancelItem, { params: { id: item.id }, body }));
          }}
        >
          <label htmlFor="cancel-reason">Why you cancel it (optional, kept on the item)</label>
          <textarea id="cancel-reason" value={note} onChange={(e) => setNote(e.target.value)} rows={2} />
          <button type="submit" disabled={busy}>
            Cancel item
          </button>
        </form>
      )}
      {rejecting && !nowhere && (
        <form
          className="reject-form"
          onSubmit={(e) => {
            e.preventDefault();
            void decide(() =>
              callRoute(routes.rejectGate, {
                params,
                body: { note, ...seen, ...(target ? { node: target } : {}) },
              }),
            );
          }}
        >
          <label htmlFor="reject-note">
            {agents
              ? 'What should change (the next agent reads this)'
              : 'What should change (kept on the item with the rejection)'}
          </label>
          <textarea
            id="reject-note"
            required
            value={note}
            onChange={(e) => setNote(e.target.value)}
            rows={3}
          />
          {targets.length > 0 && (
            <label>
              Go back to{' '}
              <select value={target} onChange={(e) => setTarget(e.target.value)}>
                <option value="">{rejectTo ?? 'the node before the gate'} (the gate&apos;s choice)</option>
                {targets
                  .filter((t) => t !== rejectTo)
                  .map((t) => (
                    <option key={t} value={t}>
                      {t}
                    </option>
                  ))}
              </select>
            </label>
          )}
          <button type="submit" disabled={busy || note.trim() === ''}>
            Reject
          </button>
        </form>
      )}
      {error && <p role="alert">{error}</p>}
    </section>
  );
}
