import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ButtonHTMLAttributes, type ReactNode } from 'react';
import type { ItemDraftAnswer } from '../../../../src/contract/items/draft.js';
import { callRoute, routes, type Item } from '../../api.js';
import { refreshItem } from '../../item-cache.js';
import { itemDraftQuery } from '../../queries.js';
import { canDraft } from './draft-query.js';
import { describeOp } from './ops.js';

/**
 * Start (or resume) asks first when the item has a draft not applied: a start would run the chain
 * without those changes. The answer is read afresh, since a row or the peek may never have
 * loaded it. Returns `ask(go)`, which runs `go` at once when there is nothing to ask, and the dialog.
 */
export function useStartAsk(item: Item): { ask: (go: () => unknown) => Promise<void>; dialog: ReactNode } {
  const client = useQueryClient();
  const [pending, setPending] = useState<{ draft: ItemDraftAnswer; go: () => unknown } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const ask = async (go: () => unknown) => {
    setError(null);
    if (!canDraft(item)) {
      go();
      return;
    }
    let draft: ItemDraftAnswer;
    try {
      draft = await client.fetchQuery({ ...itemDraftQuery(item), staleTime: 0 });
    } catch (e) {
      // No readable draft (a worker's own item, a race with its end): nothing to ask about.
      setError(`The draft could not be read (${(e as Error).message}); starting anyway.`);
      go();
      return;
    }
    if (draft.ops.length === 0) go();
    else setPending({ draft, go });
  };
  const applyThenGo = async () => {
    if (!pending) return;
    setError(null);
    try {
      const applied = await callRoute(routes.applyItemDraft, { params: { id: item.id } });
      client.setQueryData(itemDraftQuery(item).queryKey, applied);
      await refreshItem(client, item.id);
      const { go } = pending;
      setPending(null);
      go();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const verb = item.started_at === null ? 'Start' : 'Resume';
  const dialog = (
    <>
      {pending && (
        <AskDialog title="Apply the draft first?" onClose={() => setPending(null)}>
          <p>
            This item has {pending.draft.ops.length} draft change{pending.draft.ops.length === 1 ? '' : 's'}{' '}
            not applied yet. {verb} would run the chain without{' '}
            {pending.draft.ops.length === 1 ? 'it' : 'them'}.
          </p>
          <ul>
            {pending.draft.ops.map((op, i) => (
              <li key={i}>{describeOp(op)}</li>
            ))}
          </ul>
          {error && <p role="alert">{error}</p>}
          <div className="buttons">
            <button type="button" className="primary" onClick={() => void applyThenGo()}>
              Apply, then {verb.toLowerCase()}
            </button>
            <button
              type="button"
              onClick={() => {
                const { go } = pending;
                setPending(null);
                go();
              }}
            >
              {verb} without {pending.draft.ops.length === 1 ? 'it' : 'them'}
            </button>
            <button type="button" onClick={() => setPending(null)}>
              Keep editing
            </button>
          </div>
        </AskDialog>
      )}
      {!pending && error && <p role="alert">{error}</p>}
    </>
  );
  return { ask, dialog };
}

function AskDialog({
  title,
  onClose,
  children,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (ref.current && !ref.current.open) ref.current.showModal();
  }, []);
  return (
    // Keys stay in the dialog: a board row would read Enter or Space as its own.
    <dialog
      ref={ref}
      aria-label={title}
      onClose={onClose}
      onCancel={onClose}
      onKeyDown={(e) => e.stopPropagation()}
    >
      <h2>{title}</h2>
      {children}
    </dialog>
  );
}

/** A Start or Resume button that asks first when the item has draft changes not applied. */
export function StartButton({
  item,
  go,
  children,
  ...button
}: { item: Item; go: () => unknown } & Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'onClick' | 'type'>) {
  const { ask, dialog } = useStartAsk(item);
  return (
    <>
      <button type="button" {...button} onClick={() => void ask(go)}>
        {children}
      </button>
      {dialog}
    </>
  );
}
