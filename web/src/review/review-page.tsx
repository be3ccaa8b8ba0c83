import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError, callRoute, routes } from '../api.js';
import { refreshItem } from '../item-cache.js';
import { itemChainQuery, itemQuery } from '../queries.js';
import { DiffView } from './diff-view.js';
import { describeReview, FinishReview, type Verdict } from './finish-review.js';
import { useGateDoc, useThreads, type Pending } from './review-data.js';
import { ThreadView } from './thread-view.js';
import './review.css';

const Markdown = lazy(() => import('../item/markdown.js'));

/** Pending comments survive a reload: kept in this browser per item until Finish review posts them. */
function usePending(id: string) {
  const key = `jig.review.pending.${id}`;
  const [pending, setPending] = useState<Pending[]>(() => {
    try {
      const raw = localStorage.getItem(key);
      return raw ? (JSON.parse(raw) as Pending[]) : [];
    } catch {
      return [];
    }
  });
  useEffect(() => {
    if (pending.length === 0) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(pending));
  }, [key, pending]);
  return [pending, setPending] as const;
}

/**
 * The review page: at a gate the gate's document first, then the changes (compare picker, file
 * tree with Viewed boxes, inline or side-by-side diff) with line comments kept here until Finish
 * review posts them, the item's threads, and the "Your review" bar.
 */
export default function ReviewPage() {
  const { id = '' } = useParams();
  const client = useQueryClient();
  const item = useQuery(itemQuery(id));
  const it = item.data;
  const gate = it && it.status === 'stopped' && it.stop?.kind === 'gate' ? it.current_node : null;
  const chain = useQuery({ ...itemChainQuery(id, it?.started_at ?? null), enabled: it !== undefined });
  const doc = useGateDoc(id, gate, it?.gate_document);
  const threads = useThreads(id);
  const [pending, setPending] = usePending(id);
  const [finishing, setFinishing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  if (item.isPending) return <p className="page muted">Loading…</p>;
  if (item.isError || !it) {
    const e = item.error;
    return (
      <section className="page">
        <h1>{e instanceof ApiError && e.status === 404 ? 'No such work item' : 'The item could not load'}</h1>
        <p role="alert">{e?.message}</p>
        <Link to="/">Back to the board</Link>
      </section>
    );
  }

  const all = threads.data?.threads ?? [];
  const open = all.filter((t) => t.state === 'open');
  const mustFix =
    open.filter((t) => t.label === 'must-fix').length + pending.filter((p) => p.label === 'must-fix').length;
  const general = all.filter((t) => t.file_path === null);
  const nodes = (() => {
    const list = chain.data?.nodes ?? [];
    const at = list.findIndex((n) => n.id === it.current_node);
    return list
      .slice(0, at < 0 ? list.length : at + (gate ? 0 : 1))
      .flatMap((n) => (n.kind === 'exec' ? [n.id] : []));
  })();

  const finish = async (v: Verdict) => {
    setError(null);
    setDone(null);
    // At a gate an approval carries the digest of the document read; until it has loaded there is
    // nothing to pin the approval to. A gate whose item names no document has none to wait for.
    if (v.outcome === 'approve' && gate && it.gate_document && doc.data === undefined) {
      setError("The gate's document has not loaded yet; approve once you have read it.");
      return;
    }
    setBusy(true);
    try {
      // Each pending comment becomes a thread first: a request for changes sends them to the agent.
      for (const p of pending) {
        await callRoute(routes.postThread, {
          params: { id: it.id },
          body: {
            body: p.body,
            file_path: p.file_path,
            start_line: p.start_line,
            end_line: p.end_line,
            side: p.side,
            ...(p.label ? { label: p.label } : {}),
            ...(p.suggestion !== null ? { suggestion: p.suggestion } : {}),
          },
        });
        setPending((list) => list.filter((x) => x.key !== p.key));
      }
      const r = await callRoute(routes.submitReview, {
        params: { id: it.id },
        body: {
          outcome: v.outcome,
          ...(v.summary ? { summary: v.summary } : {}),
          ...(v.outcome === 'request_changes' && v.node ? { node: v.node } : {}),
          // Approve what was read: a gate document changed since is refused, and shown anew.
          ...(v.outcome === 'approve' && doc.data ? { digest: doc.data.digest } : {}),
          // At a gate the review answers the request this page shows, never a later one.
          ...(gate && v.outcome !== 'comment' && it.gate_request !== null
            ? { request: it.gate_request }
            : {}),
        },
      });
      setDone(describeReview(r.review));
      setFinishing(false);
    } catch (e) {
      if (e instanceof ApiError && e.is('document_changed')) await doc.refetch();
      setError((e as Error).message);
    } finally {
      setBusy(false);
      await refreshItem(client, it.id);
    }
  };

  return (
    <section className="page rv-page" aria-labelledby="review-title">
      <nav className="muted small">
        <Link to="/">Board</Link> / <Link to={`/work-items/${it.id}`}>{it.title}</Link> / review
      </nav>
      <header className="rv-head">
        <h1 id="review-title">Review: {it.title}</h1>
        <span className={`status status-${it.display_status}`}>{it.display_status.replace('_', ' ')}</span>
      </header>
      {gate && (
        <div className="banner banner-gate" role="status">
          Waiting for your review at <code>{gate}</code>
        </div>
      )}
      {gate && doc.data && (
        <details className="document rv-doc" open>
          <summary>
            The gate&apos;s document: <strong>{doc.data.kind}</strong>{' '}
            <span className="muted small">{doc.data.path}</span>
          </summary>
          <article aria-label={`${doc.data.kind} document`}>
            <Suspense fallback={<pre className="doc-text">{doc.data.text}</pre>}>
              <Markdown text={doc.data.text} />
            </Suspense>
          </article>
        </details>
      )}
      {done && (
        <p className="banner banner-ok rv-done-banner" role="status">
          {done}{' '}
          <button type="button" className="link" onClick={() => setDone(null)}>
            Dismiss
          </button>
        </p>
      )}
      {general.length > 0 && (
        <section aria-label="comments on the whole change" className="rv-general">
          <h2>On the whole change</h2>
          {general.map((t) => (
            <ThreadView key={t.id} itemId={it.id} thread={t} />
          ))}
        </section>
      )}
      {!it.has_worktree ? (
        <p className="muted">
          Nothing to review yet:{' '}
          {it.started_at === null ? 'the item has not started' : 'its worktree is not cut yet'}.
        </p>
      ) : (
        <DiffView
          item={it}
          threads={all.filter((t) => t.file_path !== null)}
          pending={pending}
          onAdd={(p) => setPending((list) => [...list, { ...p, key: `${Date.now()}-${list.length}` }])}
          onRemove={(key) => setPending((list) => list.filter((x) => x.key !== key))}
        />
      )}
      {threads.isError && <p role="alert">The threads could not load: {threads.error.message}</p>}
      <div className="rv-bar" role="region" aria-label="Your review">
        {finishing && (
          <FinishReview
            item={it}
            gate={gate}
            nodes={nodes}
            mustFix={mustFix}
            pending={pending.length}
            openThreads={open.length}
            busy={busy}
            error={error}
            onSubmit={(v) => void finish(v)}
            onClose={() => setFinishing(false)}
          />
        )}
        <div className="rv-bar-row">
          <strong>Your review</strong>
          <span className="muted">
            {pending.length} pending {pending.length === 1 ? 'comment' : 'comments'} · {open.length} open{' '}
            {open.length === 1 ? 'thread' : 'threads'}
            {mustFix > 0 ? ` · ${mustFix} must-fix` : ''}
          </span>
          <button
            type="button"
            className="primary"
            aria-expanded={finishing}
            onClick={() => {
              setError(null);
              setFinishing((f) => !f);
            }}
          >
            Finish review
          </button>
        </div>
        {!finishing && error && <p role="alert">{error}</p>}
      </div>
    </section>
  );
}
