import { useState } from 'react';
import { callRoute, routes } from '../../api.js';
import { plural } from '../../words.js';
import { messageOf, useAction, useRefresh, type CollectionInfo } from './addons-data.js';
import type { ReviewTarget } from './review-panel.js';

/*
 * The collections add-ons come from: where each is read (a directory as it is, or a git
 * repository at the commit addons.lock pins), the add-ons it lists and which are installed, and
 * the form that adds one. Nothing here installs anything: Review & install opens the review.
 */

type Install = Extract<ReviewTarget, { kind: 'install' }>;

function ListedAddon({
  c,
  a,
  onReview,
}: {
  c: CollectionInfo;
  a: CollectionInfo['addons'][number];
  onReview: (t: Install) => void;
}) {
  const [as, setAs] = useState('');
  return (
    <tr>
      <th scope="row" data-label="Add-on">
        {a.name}
        {a.description && <div className="muted small">{a.description}</div>}
      </th>
      <td data-label="Version">{a.version ?? <span className="muted">unreadable</span>}</td>
      <td data-label="Installed as">
        {a.installed_as.length ? a.installed_as.join(', ') : <span className="muted">not installed</span>}
      </td>
      <td data-label="Install">
        {a.installed_as.length === 0 && (
          <form
            className="addon-copy"
            onSubmit={(e) => {
              e.preventDefault();
              onReview({ kind: 'install', addon: a.name, collection: c.name, as: as.trim() || null });
            }}
          >
            <input
              aria-label={`Install ${a.name} as`}
              placeholder={`as ${a.name}`}
              value={as}
              size={12}
              onChange={(e) => setAs(e.target.value)}
            />
            <button type="submit" aria-label={`Review & install ${a.name}`}>
              Review &amp; install
            </button>
          </form>
        )}
      </td>
    </tr>
  );
}

export function CollectionCard({ c, onReview }: { c: CollectionInfo; onReview: (t: Install) => void }) {
  const [confirm, setConfirm] = useState(false);
  const { run, refusal } = useAction();
  const params = { name: c.name };
  return (
    <section className="tpl-card" aria-labelledby={`coll-${c.name}`}>
      <h3 id={`coll-${c.name}`}>
        {c.name} {c.description && <span className="muted small">{c.description}</span>}
      </h3>
      <dl className="lib-facts small">
        <dt>Source</dt>
        <dd>
          <code className="addon-wrap">{c.source}</code>
        </dd>
        {c.kind === 'git' && (
          <>
            <dt>Ref</dt>
            <dd>{c.ref ?? <span className="muted">its default branch</span>}</dd>
          </>
        )}
        <dt>Pinned</dt>
        <dd>{c.commit ? <code title={c.commit}>{c.commit.slice(0, 12)}</code> : 'directory'}</dd>
      </dl>
      {c.error && <p className="banner">{c.error}</p>}
      <div className="tpl-buttons">
        <label>
          <input
            type="checkbox"
            aria-label={`Collection ${c.name} auto-update`}
            checked={c.auto_update}
            onChange={(e) =>
              void run(() =>
                callRoute(routes.patchCollection, { params, body: { auto_update: e.target.checked } }),
              )
            }
          />{' '}
          Auto-update its add-ons
        </label>
        {confirm ? (
          <>
            <button
              type="button"
              className="danger"
              onClick={() => {
                setConfirm(false);
                void run(() => callRoute(routes.removeCollection, { params }));
              }}
            >
              Remove {c.name} for good
            </button>
            <button type="button" onClick={() => setConfirm(false)}>
              Keep
            </button>
          </>
        ) : (
          <button type="button" onClick={() => setConfirm(true)}>
            Remove {c.name}
          </button>
        )}
      </div>
      {refusal && (
        <p role="alert" className="addon-refusal">
          {refusal}
        </p>
      )}
      {c.addons.length === 0 ? (
        <p className="muted small">It lists no add-on.</p>
      ) : (
        <table className="tpl-table addon-table" aria-label={`Add-ons of ${c.name}`}>
          <thead>
            <tr>
              <th>Add-on</th>
              <th>Version</th>
              <th>Installed as</th>
              <th>
                <span className="sr-only">Install</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {c.addons.map((a) => (
              <ListedAddon key={a.name} c={c} a={a} onReview={onReview} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function AddCollection() {
  const refresh = useRefresh();
  const [source, setSource] = useState('');
  const [ref, setRef] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  return (
    <form
      className="tpl-card row-form addon-add-form"
      aria-label="Add collection"
      onSubmit={(e) => {
        e.preventDefault();
        setError(null);
        setAdded(null);
        callRoute(routes.addCollection, {
          body: { source: source.trim(), ...(ref.trim() ? { ref: ref.trim() } : {}) },
        })
          .then(async (c) => {
            await refresh();
            setSource('');
            setRef('');
            setAdded(`Added collection ${c.name}: it lists ${plural(c.addons.length, 'add-on')}.`);
          })
          .catch((err: unknown) => setError(messageOf(err)));
      }}
    >
      <label className="addon-grow">
        Source: a directory on the server&apos;s machine, or a git URL
        <input
          value={source}
          required
          placeholder="/srv/collections/acme or https://github.com/acme/jig-addons.git"
          aria-invalid={error !== null}
          aria-describedby={error ? 'addon-source-problem' : undefined}
          onChange={(e) => setSource(e.target.value)}
        />
        {error && (
          <span id="addon-source-problem" className="field-problem" role="alert">
            {error}
          </span>
        )}
      </label>
      <label>
        Ref (git only, optional)
        <input value={ref} size={12} placeholder="main" onChange={(e) => setRef(e.target.value)} />
      </label>
      <button type="submit" className="primary">
        Add collection
      </button>
      {added && (
        <p role="status" className="tpl-ok addon-grow">
          {added}
        </p>
      )}
    </form>
  );
}
