import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { CancelPreview } from '../../../src/contract/routes/work-items/moves.js';
import type { Session } from '../../../src/contract/routes/work-items/sessions.js';
import { callRoute, routes, type Item } from '../api.js';
import { putItem, refreshItem } from '../item-cache.js';
import { keys } from '../queries.js';

/** A modal dialog in the page's own `<dialog>`: Esc and the close button end it. */
function Modal({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (ref.current && !ref.current.open) ref.current.showModal();
  }, []);
  return (
    <dialog ref={ref} aria-label={title} onClose={onClose} onCancel={onClose}>
      <h2>{title}</h2>
      {children}
    </dialog>
  );
}

type Open = 'escalate' | 'complete' | 'cancel' | 'log' | null;

const ENDED = ['completed', 'cancelled', 'abandoned'];

/**
 * The item page's menu: Escalate…, Mark complete…, Cancel… (with what a cancel does, from the
 * server's preview), Duplicate, Copy ID, Open worktree in editor (on the server's machine, so only
 * a browser on that machine may), View run log.
 */
export function ItemMenu({ item }: { item: Item }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [menu, setMenu] = useState(false);
  const [open, setOpen] = useState<Open>(null);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [preview, setPreview] = useState<CancelPreview | null>(null);
  const [log, setLog] = useState<{ session: Session; text: string } | null>(null);
  const ended = ENDED.includes(item.status);

  const close = () => {
    setOpen(null);
    setText('');
    setError(null);
  };
  /** Runs a move of the menu, closes its dialog, then `settle`s the cache with the move's answer. */
  const act = async <T,>(send: () => Promise<T>, settle: (answer: T) => Promise<void>) => {
    setError(null);
    try {
      const answer = await send();
      close();
      await settle(answer);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const params = { id: item.id };
  const end = (how: 'cancel' | 'complete') => {
    const body = text.trim() ? { reason: text.trim() } : {};
    return act(
      () =>
        how === 'cancel'
          ? callRoute(routes.cancelItem, { params, body })
          : callRoute(routes.completeItem, { params, body }),
      (moved) => putItem(client, moved),
    );
  };
  const choose = async (what: Open | 'duplicate' | 'copy' | 'worktree') => {
    setMenu(false);
    setNote(null);
    if (what === 'worktree') {
      try {
        const opened = await callRoute(routes.openWorktree, { params });
        setNote(`opened ${opened.path} in ${opened.editor}`);
      } catch (e) {
        setNote((e as Error).message);
      }
      return;
    }
    if (what === 'duplicate')
      return act(
        () => callRoute(routes.duplicateItem, { params }),
        async (copy) => {
          // A new item: the lists are read again to take it in.
          await client.invalidateQueries({ queryKey: keys.lists });
          void navigate(`/work-items/${copy.id}`);
        },
      );
    if (what === 'copy') {
      try {
        await navigator.clipboard.writeText(item.id);
        setNote(`copied ${item.id}`);
      } catch {
        setNote(`the browser refused the clipboard; the id is ${item.id}`);
      }
      return;
    }
    if (what === 'cancel') setPreview(await callRoute(routes.cancelPreview, { params }));
    if (what === 'log') {
      const { sessions } = await callRoute(routes.listSessions, { params });
      const last = sessions[sessions.length - 1];
      if (!last) return setNote('no task has run yet: there is no log');
      try {
        const text = await callRoute(routes.readSessionLog, {
          params: { id: item.id, session: last.id },
          query: { tail: 65536 },
        });
        setLog({ session: last, text });
      } catch (e) {
        return setNote(`the log could not be read: ${(e as Error).message}`);
      }
    }
    setOpen(what);
  };

  const waiting = (item.dependents ?? []).filter((d) => d.status === 'blocked');
  const entries: { key: Parameters<typeof choose>[0]; label: string; show: boolean }[] = [
    { key: 'escalate', label: 'Escalate…', show: item.status === 'stopped' && item.stop?.kind !== 'budget' },
    { key: 'complete', label: 'Mark complete…', show: !ended },
    { key: 'cancel', label: 'Cancel…', show: !ended },
    { key: 'duplicate', label: 'Duplicate as a new item', show: true },
    { key: 'copy', label: 'Copy ID', show: true },
    {
      key: 'worktree',
      label: 'Open worktree in editor',
      show: item.started_at !== null && item.archived_at === null,
    },
    { key: 'log', label: 'View run log', show: item.started_at !== null },
  ];
  return (
    <div className="item-menu">
      <button type="button" aria-haspopup="menu" aria-expanded={menu} onClick={() => setMenu((m) => !m)}>
        More ▾
      </button>
      {menu && (
        <ul role="menu" className="menu" onKeyDown={(e) => e.key === 'Escape' && setMenu(false)}>
          {entries
            .filter((e) => e.show)
            .map((e) => (
              <li key={e.key} role="none">
                <button type="button" role="menuitem" onClick={() => void choose(e.key)}>
                  {e.label}
                </button>
              </li>
            ))}
        </ul>
      )}
      {note && (
        <span className="muted small" role="status">
          {note}
        </span>
      )}
      {open === 'escalate' && (
        <Modal title="Escalate to an agent" onClose={close}>
          <p className="muted">
            An agent looks at the stopped item with your message; it can change the worktree and the
            item&apos;s draft, then you decide.
          </p>
          <textarea aria-label="Message" rows={4} value={text} onChange={(e) => setText(e.target.value)} />
          <div className="buttons">
            <button type="button" onClick={close}>
              Close
            </button>
            <button
              type="button"
              className="primary"
              disabled={!text.trim()}
              onClick={() =>
                void act(
                  () => callRoute(routes.escalateItem, { params, body: { message: text } }),
                  // An agent starts on the item: it is read again, not answered.
                  () => refreshItem(client, item.id),
                )
              }
            >
              Escalate
            </button>
          </div>
          {error && <p role="alert">{error}</p>}
        </Modal>
      )}
      {(open === 'complete' || open === 'cancel') && (
        <Modal title={open === 'complete' ? 'Mark the item complete' : 'Cancel the item'} onClose={close}>
          {open === 'cancel' && preview && (
            <ul className="muted">
              {!preview.allowed && <li role="alert">{preview.detail}</li>}
              <li>It ends as cancelled; nothing more runs.</li>
              {preview.sessions_to_stop > 0 && (
                <li>{preview.sessions_to_stop} running task(s) are stopped.</li>
              )}
              <li>
                Its worktree {preview.worktree_path ? <code>{preview.worktree_path}</code> : '(none yet)'} and
                branch <code>{preview.branch}</code> are kept.
              </li>
              {preview.dependents.length > 0 && (
                <li role="alert">
                  {preview.dependents.length === 1
                    ? 'One item comes'
                    : `${preview.dependents.length} items come`}{' '}
                  after it and will stay blocked until a person unblocks or cancels{' '}
                  {preview.dependents.length === 1 ? 'it' : 'them'}:{' '}
                  {preview.dependents.map((d) => d.title).join(', ')}.
                </li>
              )}
            </ul>
          )}
          {open === 'complete' && (
            <p className="muted">
              It ends as completed where it is; the nodes after this one do not run.
              {waiting.length > 0 &&
                ` The items that come after it start if nothing else holds them: ${waiting.map((d) => d.title).join(', ')}.`}
            </p>
          )}
          <label>
            Reason (kept in its history)
            <input value={text} onChange={(e) => setText(e.target.value)} />
          </label>
          <div className="buttons">
            <button type="button" onClick={close}>
              Keep it
            </button>
            <button
              type="button"
              className={open === 'cancel' ? 'danger' : 'primary'}
              disabled={open === 'cancel' && preview?.allowed === false}
              onClick={() => void end(open)}
            >
              {open === 'complete' ? 'Mark complete' : 'Cancel the item'}
            </button>
          </div>
          {error && <p role="alert">{error}</p>}
        </Modal>
      )}
      {open === 'log' && log && (
        <Modal title={`Run log of ${log.session.task_path}`} onClose={close}>
          <p className="muted small">
            Session <code>{log.session.id}</code>, {log.session.status}; the last 64 KB.
          </p>
          <pre className="log">{log.text || '(empty)'}</pre>
          <div className="buttons">
            <button type="button" onClick={close}>
              Close
            </button>
          </div>
        </Modal>
      )}
    </div>
  );
}
