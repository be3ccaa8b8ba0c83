import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Item } from '../api.js';
import { callRoute, routes } from '../api.js';
import { keys, reposQuery } from '../queries.js';
import { createBody, targetOf, type Draft } from './draft.js';
import { resetDraft, updateDraft, useDraft } from './draft-store.js';
import { useDryRun } from './use-dry-run.js';

/**
 * The composer as the dialog and the full page both run it: the shared draft, where it would go,
 * the live dry run, and the create that files it (and forgets the draft).
 */
export function useComposer(onCreated: (item: Item) => void) {
  const client = useQueryClient();
  const d = useDraft();
  const repos = useQuery(reposQuery());
  const target = targetOf(d, repos.data);
  const dry = useDryRun(target.repo && d.title.trim() ? createBody(d, false, target) : null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const create = async (start: boolean) => {
    setBusy(true);
    setError(null);
    try {
      const item = await callRoute(routes.createItem, { body: createBody(d, start, target) });
      if ('dry_run' in item) throw new Error('the server answered a dry run');
      // A new item: the lists are read again to take it in.
      await client.invalidateQueries({ queryKey: keys.lists });
      resetDraft();
      onCreated(item);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => updateDraft((x) => ({ ...x, [k]: v }));
  return {
    d,
    set,
    update: updateDraft,
    repos,
    target,
    dry,
    error,
    busy,
    create,
    /** Whether the draft can be filed as it stands (the server may still refuse it). */
    ready: !busy && d.title.trim() !== '' && target.repo !== '',
  };
}

export type ComposerState = ReturnType<typeof useComposer>;
