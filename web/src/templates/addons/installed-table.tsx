import { useState } from 'react';
import { callRoute, routes } from '../../api.js';
import { at, useAction, type InstalledAddon, type Update } from './addons-data.js';
import { Offers } from './offers.js';

/*
 * The installed add-ons: one row each with its state and its two switches, and what it offers
 * below it on demand. Disabling or uninstalling one your own files still use is refused by the
 * server, and its words (which file, which line) show under the row they concern.
 */

const STATE_CLASS: Record<InstalledAddon['state'], string> = {
  ok: 'chip addon-ok',
  disabled: 'chip',
  problems: 'chip chip-warn',
  missing: 'chip chip-warn',
};

function Row({
  a,
  update,
  onReview,
}: {
  a: InstalledAddon;
  update: Update | undefined;
  onReview: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const { run, refusal, dismiss } = useAction();
  const params = { namespace: a.namespace };
  return (
    <>
      <tr className="addon-row">
        <th scope="row" data-label="Namespace">
          <code>{a.namespace}</code>
          {a.description && <div className="muted small">{a.description}</div>}
        </th>
        <td data-label="Add-on">
          {a.addon}@{a.collection}
        </td>
        <td data-label="Version">
          {a.version}
          {update && (
            <div>
              <span className="chip chip-warn">
                {update.action === 'downgrade' ? 'downgrade to' : 'update'} {update.to}
              </span>
            </div>
          )}
        </td>
        <td data-label="State">
          <span className={STATE_CLASS[a.state]}>{a.state}</span>
        </td>
        <td data-label="Enabled">
          <input
            type="checkbox"
            aria-label={`${a.namespace} enabled`}
            checked={a.enabled}
            onChange={(e) =>
              void run(() => callRoute(routes.patchAddon, { params, body: { enabled: e.target.checked } }))
            }
          />
        </td>
        <td data-label="Auto-update">
          <input
            type="checkbox"
            aria-label={`${a.namespace} auto-update`}
            checked={a.auto_update}
            onChange={(e) =>
              void run(() =>
                callRoute(routes.patchAddon, { params, body: { auto_update: e.target.checked } }),
              )
            }
          />
        </td>
        <td data-label="Actions">
          <div className="tpl-buttons">
            <button
              type="button"
              aria-expanded={open}
              aria-label={`What ${a.namespace} offers`}
              onClick={() => setOpen(!open)}
            >
              {open ? 'Hide offers' : 'Offers'}
            </button>
            {update && (
              <button type="button" aria-label={`Review update of ${a.namespace}`} onClick={onReview}>
                Review update
              </button>
            )}
            {confirm ? (
              <>
                <button
                  type="button"
                  className="danger"
                  onClick={() => {
                    setConfirm(false);
                    void run(() => callRoute(routes.uninstallAddon, { params }));
                  }}
                >
                  Uninstall {a.namespace} for good
                </button>
                <button type="button" onClick={() => setConfirm(false)}>
                  Keep
                </button>
              </>
            ) : (
              <button type="button" aria-label={`Uninstall ${a.namespace}`} onClick={() => setConfirm(true)}>
                Uninstall
              </button>
            )}
          </div>
        </td>
      </tr>
      {(refusal || a.problems.length > 0) && (
        <tr className="addon-sub">
          <td colSpan={7}>
            {refusal && (
              <p className="addon-refusal">
                <span role="alert">{refusal}</span>{' '}
                <button type="button" className="link" onClick={dismiss}>
                  Dismiss
                </button>
              </p>
            )}
            {a.problems.length > 0 && (
              <ul className="problems" aria-label={`Problems of ${a.namespace}`}>
                {a.problems.map((p, i) => (
                  <li key={i}>
                    <code>{at(p)}</code> {p.message}
                  </li>
                ))}
              </ul>
            )}
          </td>
        </tr>
      )}
      {open && (
        <tr className="addon-sub">
          <td colSpan={7}>
            <Offers a={a} />
          </td>
        </tr>
      )}
    </>
  );
}

export function InstalledTable({
  addons,
  updates,
  onReview,
}: {
  addons: InstalledAddon[];
  updates: Update[];
  onReview: (namespace: string) => void;
}) {
  if (addons.length === 0)
    return (
      <p className="muted">None yet: add a collection below, then review and install one of its add-ons.</p>
    );
  const byNs = new Map(updates.map((u) => [u.namespace, u]));
  return (
    <table className="tpl-table addon-table" aria-label="Installed add-ons">
      <thead>
        <tr>
          <th>Namespace</th>
          <th>Add-on</th>
          <th>Version</th>
          <th>State</th>
          <th>Enabled</th>
          <th>Auto-update</th>
          <th>
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {addons.map((a) => (
          <Row
            key={a.namespace}
            a={a}
            update={byNs.get(a.namespace)}
            onReview={() => onReview(a.namespace)}
          />
        ))}
      </tbody>
    </table>
  );
}
