import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { callRoute, routes } from '../../api.js';
import { chainsQuery, keys, libraryQuery } from '../../queries.js';
import { newChain, useDraftList } from '../chains/draft-api.js';
import { bareName, freeName, messageOf } from './addons-data.js';

/*
 * "Copy to my library": an add-on's chain or component becomes a file of your own, which you then
 * change as you like (docs/drafts.md, `new_chain` with `from`, `copy_component`). A chain copy is
 * a new chain draft opened in the chain editor, where it is reviewed and published like any chain;
 * a component copy is one op on the library draft, published at once since there is no library
 * editor to finish it in.
 */

/** The library's one draft. */
const LIBRARY_DRAFT = { area: 'library', key: 'library' };

/** A name field with its submit and cancel: the shape both copies share. */
function CopyForm(p: {
  label: string;
  value: string;
  submit: string;
  onChange: (v: string) => void;
  onSubmit: () => Promise<void>;
  onCancel: () => void;
  children?: ReactNode;
}) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="addon-copy"
      onSubmit={(e) => {
        e.preventDefault();
        setError(null);
        setBusy(true);
        p.onSubmit()
          .catch((err: unknown) => setError(messageOf(err)))
          .finally(() => setBusy(false));
      }}
    >
      <input aria-label={p.label} value={p.value} onChange={(e) => p.onChange(e.target.value)} required />
      <button type="submit" className="primary" disabled={busy}>
        {p.submit}
      </button>
      <button type="button" onClick={p.onCancel}>
        Cancel
      </button>
      {p.children}
      {error && (
        <span className="field-problem" role="alert">
          {error}
        </span>
      )}
    </form>
  );
}

/** `release:ship` copied as a chain of your own, then opened in the chain editor. */
export function CopyChain({ from, onCancel }: { from: string; onCancel: () => void }) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const chains = useQuery(chainsQuery());
  const drafts = useDraftList();
  const [typed, setTyped] = useState<string | null>(null);
  // A chain id is taken by a file and by a draft of a chain not published yet.
  const taken = new Set([
    ...(chains.data?.chains ?? []).map((c) => c.id),
    ...(drafts.data ?? []).filter((d) => d.area === 'chains').map((d) => d.key),
  ]);
  const id = typed ?? freeName(bareName(from), taken);
  return (
    <CopyForm
      label={`Id of the copy of ${from}`}
      value={id}
      submit="Copy and open"
      onChange={setTyped}
      onCancel={onCancel}
      onSubmit={async () => {
        const key = id.trim();
        await newChain(key, from);
        await client.invalidateQueries({ queryKey: keys.drafts, exact: true });
        await navigate(`/templates/chains/${encodeURIComponent(key)}`);
      }}
    />
  );
}

/** `release:notes_writer` copied into library.yaml's `section`, and published. */
export function CopyComponent({
  section,
  from,
  onCancel,
}: {
  section: string;
  from: string;
  onCancel: () => void;
}) {
  const client = useQueryClient();
  const library = useQuery(libraryQuery());
  const drafts = useDraftList();
  const [typed, setTyped] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const taken = new Set(
    (library.data?.components ?? []).filter((c) => c.section === section).map((c) => c.name),
  );
  const name = typed ?? freeName(bareName(from), taken);
  // Publishing the library draft publishes all of it: say so when someone else's changes are in it.
  const open = (drafts.data ?? []).find((d) => d.area === 'library' && d.key === 'library');
  if (done)
    return (
      <p role="status" className="tpl-ok">
        Copied {from} to <Link to={`/templates/library/${done}`}>{done}</Link> in library.yaml.
      </p>
    );
  return (
    <CopyForm
      label={`Name of the copy of ${from}`}
      value={name}
      submit={open ? 'Copy and publish the library draft' : 'Copy and publish'}
      onChange={setTyped}
      onCancel={onCancel}
      onSubmit={async () => {
        const answer = await callRoute(routes.draftOps, {
          params: LIBRARY_DRAFT,
          body: { ops: [{ op: 'copy_component', section, from, name: name.trim() }] },
        });
        const result = answer.ops[0]?.result;
        const path =
          typeof result === 'object' && result !== null && 'path' in result && typeof result.path === 'string'
            ? result.path
            : `${section}.${name.trim()}`;
        try {
          await callRoute(routes.publishDraft, { params: LIBRARY_DRAFT });
        } catch (e) {
          // A draft this copy began is thrown away, so a refused publish leaves nothing behind.
          if (!open) await callRoute(routes.discardDraft, { params: LIBRARY_DRAFT }).catch(() => undefined);
          throw e;
        } finally {
          await client.invalidateQueries({ queryKey: keys.drafts, exact: true });
        }
        await client.invalidateQueries({ queryKey: keys.library });
        setDone(path);
      }}
    >
      {open && (
        <span className="muted small">
          library.yaml has a draft open with {open.changes} changes: they are published with the copy.
        </span>
      )}
    </CopyForm>
  );
}
