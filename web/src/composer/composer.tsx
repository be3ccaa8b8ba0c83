import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import type { Item } from '../api.js';
import { BasicFields, CreateButtons, DryLine, formKeys } from './basic-fields.js';
import { moreOptionsSet } from './draft.js';
import { resetDraft } from './draft-store.js';
import { useComposer } from './use-composer.js';

/** The full page's address: the dialog hands its draft over to it, and it back. */
export const NEW_ITEM_PATH = '/work-items/new';

/**
 * The new-item composer (button or `c`): title, brief, repo, chain, an attached spec or plan, and
 * the server's dry run as one live line ("5 of 8 nodes run · 2 gates"), then Create paused or
 * Create and start (Ctrl/⌘+Enter). More options opens the full page with what was typed.
 */
export function Composer({ onClose, onCreated }: { onClose: () => void; onCreated: (item: Item) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const navigate = useNavigate();
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);
  const c = useComposer(onCreated);
  // Closed over the full page (or on the way to it), the draft is the page's: only a dialog of its
  // own forgets it. The address is read when it closes, after More options has moved it.
  const close = () => {
    if (window.location.pathname !== NEW_ITEM_PATH) resetDraft();
    onClose();
  };
  const more = moreOptionsSet(c.d, c.target.chain);
  return (
    <dialog
      ref={dialog}
      className="composer"
      aria-labelledby="composer-title"
      onClose={close}
      onCancel={close}
    >
      <form {...formKeys(c)}>
        <h2 id="composer-title">New work item</h2>
        <BasicFields c={c} />
        {more.length > 0 && <p className="muted small">Also set: {more.join(' · ')}</p>}
        <DryLine c={c} />
        {c.error && <p role="alert">{c.error}</p>}
        <div className="buttons">
          <button
            type="button"
            className="link more-options"
            onClick={() => {
              void navigate(NEW_ITEM_PATH);
              onClose();
            }}
          >
            More options
          </button>
          <button type="button" onClick={close}>
            Close
          </button>
          <CreateButtons c={c} />
        </div>
      </form>
    </dialog>
  );
}
