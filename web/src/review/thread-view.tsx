import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import type { ReviewThread } from '../../../src/contract/threads.js';
import { callRoute, routes } from '../api.js';
import { keys } from '../queries.js';
import { CommentForm } from './comment-form.js';
import type { Pending } from './review-data.js';

const Markdown = lazy(() => import('../item/markdown.js'));

function Text({ text }: { text: string }) {
  return (
    <Suspense fallback={<pre className="doc-text">{text}</pre>}>
      <Markdown text={text} />
    </Suspense>
  );
}

function lines(start: number | null, end: number | null): string {
  if (start === null) return '';
  return end !== null && end !== start ? `lines ${start}–${end}` : `line ${start}`;
}

/** Where a thread is: its file and its lines now (or where they were, when they changed since). */
export function placeOf(t: ReviewThread): string {
  if (!t.file_path) return 'the whole change';
  if (t.start_line === null) return t.file_path;
  const now = t.lines_now;
  if (t.outdated || !now) return `${t.file_path}, ${lines(t.start_line, t.end_line)} (outdated)`;
  return `${t.file_path}, ${lines(now.start, now.end)}`;
}

function Suggestion({ text }: { text: string }) {
  return (
    <figure className="rv-suggestion">
      <figcaption className="muted small">Suggested change</figcaption>
      <pre>{text}</pre>
    </figure>
  );
}

/**
 * A posted thread: its label, what was said (Markdown), an agent's claim, the suggestion; Reply
 * posts at once (an answer to a conversation, not part of the verdict), Resolve and Reopen too.
 */
export function ThreadView({ itemId, thread }: { itemId: string; thread: ReviewThread }) {
  const client = useQueryClient();
  const [replying, setReplying] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const act = async (send: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await send();
      setReplying(false);
      await client.invalidateQueries({ queryKey: keys.item(itemId) });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const first = thread.comments[0];
  const resolved = thread.state === 'resolved';
  return (
    <article
      className={`rv-thread${resolved ? ' rv-resolved' : ''}`}
      aria-label={`thread on ${placeOf(thread)}`}
    >
      <header className="rv-thread-head">
        {thread.label && <span className={`label label-${thread.label}`}>{thread.label}</span>}
        <span className="muted small">{placeOf(thread)}</span>
        <span className={`chip${resolved ? '' : ' chip-warn'}`}>{thread.state}</span>
        {thread.claim && <span className="chip">agent: {thread.claim.replace('_', ' ')}</span>}
      </header>
      {first && <Text text={first.body} />}
      {thread.suggestion !== null && <Suggestion text={thread.suggestion} />}
      {thread.comments.slice(1).map((c) => (
        <div key={c.id} className="rv-reply">
          <div className="muted small">
            {c.by === 'agent' ? 'Agent' : 'You'}
            {c.claim ? ` · ${c.claim.replace('_', ' ')}` : ''}
          </div>
          <Text text={c.body} />
        </div>
      ))}
      {replying ? (
        <CommentForm
          title={`Reply to the thread on ${placeOf(thread)}`}
          submitLabel="Reply"
          suggestFrom={null}
          reply
          busy={busy}
          error={error}
          onSubmit={(d) =>
            void act(() =>
              callRoute(routes.postThread, {
                params: { id: itemId },
                body: { thread_id: thread.id, body: d.body },
              }),
            )
          }
          onCancel={() => setReplying(false)}
        />
      ) : (
        <div className="rv-form-row">
          <button type="button" onClick={() => setReplying(true)}>
            Reply
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={() => {
              const params = { id: itemId, thread: thread.id };
              void act(() =>
                resolved
                  ? callRoute(routes.reopenThread, { params })
                  : callRoute(routes.resolveThread, { params }),
              );
            }}
          >
            {resolved ? 'Reopen' : 'Resolve'}
          </button>
        </div>
      )}
      {!replying && error && <p role="alert">{error}</p>}
    </article>
  );
}

/** A comment not posted yet: Finish review posts it. */
export function PendingView({ pending, onRemove }: { pending: Pending; onRemove: () => void }) {
  return (
    <article
      className="rv-thread rv-pending"
      aria-label={`pending comment on ${pending.file_path}, ${lines(pending.start_line, pending.end_line)}`}
    >
      <header className="rv-thread-head">
        {pending.label && <span className={`label label-${pending.label}`}>{pending.label}</span>}
        <span className="muted small">
          {pending.file_path}, {lines(pending.start_line, pending.end_line)}
          {pending.side === 'old' ? ' (old side)' : ''}
        </span>
        <span className="chip">pending</span>
      </header>
      <Text text={pending.body} />
      {pending.suggestion !== null && <Suggestion text={pending.suggestion} />}
      <div className="rv-form-row">
        <button type="button" onClick={onRemove}>
          Remove
        </button>
      </div>
    </article>
  );
}
