import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { BulkBody } from '../../../src/contract/items.js';
import type { z } from 'zod';
import { callRoute, routes } from '../api.js';
import { keys } from '../queries.js';

type BulkAction = z.infer<typeof BulkBody>['action'];

/** How long a bulk cancel waits for Undo before it is sent: a cancel cannot be taken back after. */
const UNDO_MS = 5000;

/**
 * The bar shown while items are selected: Pause N, Cancel N (a reason, then a few seconds to
 * undo before anything is sent), Archive N; Restore N on the archived list.
 */
export function BulkBar({ ids, archived, onDone }: { ids: string[]; archived: boolean; onDone: () => void }) {
  const client = useQueryClient();
  const [message, setMessage] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  const [pending, setPending] = useState<{ ids: string[]; reason: string } | null>(null);
  const timer = useRef<number | undefined>(undefined);

  const send = async (action: BulkAction, list: string[], why?: string) => {
    const r = await callRoute(routes.bulkItems, {
      body: { action, ids: list, ...(why ? { reason: why } : {}) },
    });
    const failed = r.results.filter((x) => !x.ok);
    setMessage(
      failed.length === 0
        ? `${action === 'pause' ? 'paused' : action === 'cancel' ? 'cancelled' : `${action}d`} ${list.length}`
        : `${list.length - failed.length} of ${list.length} done; ${failed[0]!.id}: ${failed[0]!.detail ?? 'refused'}`,
    );
    // Up to 500 items moved at once: the lists are read again rather than each item.
    await client.invalidateQueries({ queryKey: keys.lists });
    onDone();
  };

  useEffect(() => () => window.clearTimeout(timer.current), []);

  const startCancel = () => {
    const job = { ids: [...ids], reason: reason.trim() };
    setAsking(false);
    setReason('');
    setPending(job);
    timer.current = window.setTimeout(() => {
      setPending(null);
      void send('cancel', job.ids, job.reason || undefined);
    }, UNDO_MS);
  };

  if (pending)
    return (
      <div className="bulk-bar" role="status">
        Cancelling {pending.ids.length} item{pending.ids.length === 1 ? '' : 's'} in a few seconds…
        <button
          type="button"
          onClick={() => {
            window.clearTimeout(timer.current);
            setPending(null);
            setMessage('cancel undone: nothing was sent');
          }}
        >
          Undo
        </button>
      </div>
    );
  if (ids.length === 0)
    return message ? (
      <div className="bulk-bar muted" role="status">
        {message}
      </div>
    ) : null;
  return (
    <div className="bulk-bar" role="toolbar" aria-label="Selected items">
      <strong>{ids.length} selected</strong>
      {archived ? (
        <button type="button" onClick={() => void send('restore', ids)}>
          Restore {ids.length}
        </button>
      ) : (
        <>
          <button type="button" onClick={() => void send('pause', ids)}>
            Pause {ids.length}
          </button>
          <button type="button" onClick={() => setAsking(true)}>
            Cancel {ids.length}
          </button>
          <button type="button" onClick={() => void send('archive', ids)}>
            Archive {ids.length}
          </button>
        </>
      )}
      {asking && (
        <div role="dialog" aria-modal="false" aria-label="Cancel items" className="inline-dialog">
          <label>
            Reason <input autoFocus value={reason} onChange={(e) => setReason(e.target.value)} />
          </label>
          <button type="button" className="danger" onClick={startCancel}>
            Cancel {ids.length} items
          </button>
          <button type="button" onClick={() => setAsking(false)}>
            Keep them
          </button>
        </div>
      )}
      {message && <span className="muted small">{message}</span>}
    </div>
  );
}
