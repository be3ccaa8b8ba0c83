import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { callRoute, routes } from '../../api.js';
import { addonUpdatesQuery } from '../../queries.js';
import { plural } from '../../words.js';
import '../library/templates.css';
import './addons.css';
import { messageOf, useAddons, useUpdates } from './addons-data.js';
import { AddCollection, CollectionCard } from './collections.js';
import { InstalledTable } from './installed-table.js';
import { ReviewPanel, type ReviewTarget } from './review-panel.js';

/*
 * Templates › Add-ons (docs/board/addons.md): the installed add-ons, the collections they come
 * from, and the review every install and update goes through. Opening the tab compares versions
 * with what is already on this machine; only Check for updates fetches the git collections.
 */

export function AddonsPage() {
  const client = useQueryClient();
  const addons = useAddons();
  const updates = useUpdates();
  const [target, setTarget] = useState<ReviewTarget | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [checked, setChecked] = useState<string | null>(null);
  const open = (t: ReviewTarget) => {
    setNote(null);
    setTarget(t);
  };
  const check = async () => {
    setChecking(true);
    setChecked(null);
    try {
      const u = await callRoute(routes.checkUpdates, { query: { fetch: '1' } });
      client.setQueryData(addonUpdatesQuery().queryKey, u);
      setChecked(
        u.updates.length === 0
          ? 'Every add-on is at the version its collection has.'
          : `${plural(u.updates.length, 'update')} waiting.`,
      );
    } catch (e) {
      setChecked(messageOf(e));
    } finally {
      setChecking(false);
    }
  };
  const data = addons.data;
  return (
    <div className="addons">
      {addons.error && <p role="alert">Could not read the add-ons: {addons.error.message}</p>}
      {note && (
        <p role="status" className="tpl-ok">
          {note}
        </p>
      )}
      {target && (
        <ReviewPanel
          key={JSON.stringify(target)}
          target={target}
          onClose={() => setTarget(null)}
          onDone={(m) => {
            setTarget(null);
            setNote(m);
          }}
        />
      )}
      <section className="tpl-section" aria-labelledby="addons-installed">
        <div className="addon-bar">
          <h2 id="addons-installed">Installed</h2>
          <button type="button" disabled={checking} onClick={() => void check()}>
            {checking ? 'Checking…' : 'Check for updates'}
          </button>
          {checked && (
            <span role="status" className="small">
              {checked}
            </span>
          )}
        </div>
        {(updates.data?.errors ?? []).map((e) => (
          <p key={e.collection} className="banner">
            {e.collection}: {e.message}
          </p>
        ))}
        {data && (
          <div className="addon-table-wrap">
            <InstalledTable
              addons={data.addons}
              updates={updates.data?.updates ?? []}
              onReview={(namespace) => open({ kind: 'update', namespace })}
            />
          </div>
        )}
      </section>
      <section className="tpl-section" aria-labelledby="addons-collections">
        <h2 id="addons-collections">Collections</h2>
        {data && data.collections.length === 0 && (
          <p className="muted">
            No collection yet: add a directory or a git repository that has .jig/collection.json.
          </p>
        )}
        {data?.collections.map((c) => (
          <CollectionCard key={c.name} c={c} onReview={open} />
        ))}
        <AddCollection />
      </section>
    </div>
  );
}
