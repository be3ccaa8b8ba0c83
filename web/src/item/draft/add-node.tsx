import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ModelNode } from '../../../../src/contract/config/chain-model.js';
import type { AddedNode } from '../../../../src/contract/items/draft.js';
import { libraryQuery } from '../../queries.js';
import { freeId } from './ops.js';

/** The library sections a node can be built from, and what an added node of each looks like. */
const SECTIONS = { nodes: 'Library nodes', steps: 'Library steps', tasks: 'Library tasks' } as const;
type Section = keyof typeof SECTIONS;
const isSection = (s: string): s is Section => s in SECTIONS;

function build(section: Section, name: string, id: string): AddedNode {
  if (section === 'nodes') return { id, extends: name };
  if (section === 'steps') return { id, steps: [{ id: name, extends: name }] };
  return { id, tasks: [{ id: name, extends: name }] };
}

/** "Add a node": a library component placed after a node the item has not passed. */
export function AddNode({
  nodes,
  points,
  onAdd,
}: {
  nodes: readonly ModelNode[];
  points: string[];
  onAdd: (after: string, node: AddedNode) => Promise<boolean>;
}) {
  const library = useQuery(libraryQuery());
  const [ref, setRef] = useState('');
  const [after, setAfter] = useState('');
  const [id, setId] = useState('');
  const choices = (library.data?.components ?? []).filter((c) => isSection(c.section));
  const picked = choices.find((c) => c.ref === ref);
  const at = after || points[points.length - 1] || '';
  return (
    <form
      className="draft-add"
      aria-label="Add a node"
      onSubmit={(e) => {
        e.preventDefault();
        if (!picked || !isSection(picked.section)) return;
        const nodeId = id.trim() || freeId(picked.name, nodes);
        void onAdd(at, build(picked.section, picked.name, nodeId)).then((ok) => {
          if (ok) {
            setRef('');
            setId('');
          }
        });
      }}
    >
      <label>
        From the library{' '}
        <select required value={ref} onChange={(e) => setRef(e.target.value)}>
          <option value="">choose…</option>
          {(Object.keys(SECTIONS) as Section[]).map((s) => (
            <optgroup key={s} label={SECTIONS[s]}>
              {choices
                .filter((c) => c.section === s)
                .map((c) => (
                  <option key={c.ref} value={c.ref}>
                    {c.name}
                  </option>
                ))}
            </optgroup>
          ))}
        </select>
      </label>
      <label>
        After{' '}
        <select value={at} onChange={(e) => setAfter(e.target.value)}>
          {points.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </label>
      <label>
        Node id{' '}
        <input
          value={id}
          onChange={(e) => setId(e.target.value)}
          placeholder={picked ? freeId(picked.name, nodes) : 'from the component'}
          pattern="[a-z][a-z0-9_\-]*"
        />
      </label>
      <button type="submit" disabled={!picked || points.length === 0}>
        Add node
      </button>
      {library.isError && <p role="alert">The library could not load: {library.error.message}</p>}
    </form>
  );
}
