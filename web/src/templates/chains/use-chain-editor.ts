import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { ApiError } from '../../api.js';
import { libraryQuery } from '../../queries.js';
import { chainFile, useDraft, useDraftActions, type ChainOp, type Published } from './draft-api.js';
import { chainParts, problemsIn } from './shape.js';
import type { YamlEdit } from './yaml-view.js';

export type View = 'graph' | 'yaml' | 'publish';

/** The node selected after ops went through: a rename or a new node moves it, a removal clears it. */
export function selectionAfter(selected: string | null, ops: readonly ChainOp[]): string | null {
  let now = selected;
  for (const op of ops) {
    if (op.op === 'rename' && op.path === now) now = op.id;
    if (op.op === 'add_node') now = op.id;
    if (op.op === 'remove' && op.path === now) now = null;
  }
  return now;
}

/**
 * One chain's editor on its draft, without drawing it: the draft and its parts, the selected node,
 * the view (graph, YAML, review), the YAML typed but not saved, and every change as an op or a PUT
 * whose answer redraws the screen.
 */
export function useChainEditor(id: string) {
  const file = chainFile(id);
  const draft = useDraft(id);
  const act = useDraftActions(id);
  const library = useQuery(libraryQuery());
  const [selected, setSelected] = useState<string | null>(null);
  const [view, setView] = useState<View>('graph');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  // Typed YAML not saved yet: kept here so switching views does not lose it.
  const [yamlEdit, setYamlEdit] = useState<YamlEdit | null>(null);
  const d = draft.data;
  const parts = useMemo(() => (d ? chainParts(d.result, file) : []), [d, file]);
  const problems = useMemo(() => d?.result.problems ?? [], [d]);
  const counts = useMemo(
    () => new Map(parts.map((p) => [p.id, problemsIn(problems, p.id).length])),
    [parts, problems],
  );
  const libNames = (section: string) =>
    (library.data?.components ?? []).filter((c) => c.section === section).map((c) => c.name);

  const fail = (e: unknown) => setError(e instanceof ApiError ? e.message : String(e));
  /** Sends ops as one change; false when refused (the error says why). */
  const run = async (ops: ChainOp[]): Promise<boolean> => {
    setError(null);
    setDone(null);
    try {
      await act.ops(ops);
      setSelected((s) => selectionAfter(s, ops));
      return true;
    } catch (e) {
      fail(e);
      return false;
    }
  };
  /** After a publish (or a discard, `null`): back to the graph, saying what happened. */
  const published = (p: Published | null) => {
    setView('graph');
    setYamlEdit(null);
    setDone(p ? `Published ${p.published.join(', ')}: new items run this chain.` : 'Draft discarded.');
  };
  const at = parts.findIndex((p) => p.id === selected);
  return {
    id,
    file,
    draft,
    act,
    parts,
    problems,
    counts,
    libNames,
    selected,
    select: setSelected,
    /** The selected node, its place, and where a new node goes: after it, else at the end. */
    node: at >= 0 ? parts[at] : undefined,
    at,
    insertAt: at >= 0 ? at + 1 : parts.length,
    view,
    setView,
    error,
    done,
    fail,
    run,
    published,
    yamlEdit,
    setYamlEdit,
  };
}

export type ChainEditorState = ReturnType<typeof useChainEditor>;
