import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { AddonReview } from '../../../../src/contract/addon-review.js';
import type {
  AddonsAnswer,
  CollectionInfo,
  InstalledAddon,
  UpdatesAnswer,
} from '../../../../src/contract/addons-api.js';
import { ApiError } from '../../api.js';
import { addonsQuery, addonUpdatesQuery, chainsQuery, keys } from '../../queries.js';

/*
 * What the Add-ons tab reads (the add-ons and their updates, queries.ts) and the little it
 * needs to say about an answer. The updates are read without a fetch when the tab opens, so
 * opening it never reaches a remote; Check for updates fetches and stores its answer in the same
 * place.
 */

export type { AddonReview, AddonsAnswer, CollectionInfo, InstalledAddon, UpdatesAnswer };
export type Update = UpdatesAnswer['updates'][number];

export function useAddons() {
  return useQuery(addonsQuery());
}

export function useUpdates() {
  return useQuery(addonUpdatesQuery());
}

/**
 * After a change: the add-ons and updates, and what an add-on's namespace reaches in the other
 * tabs (its chains in the list, its components beside the library's).
 */
export function useRefresh() {
  const client = useQueryClient();
  return async () => {
    await client.invalidateQueries({ queryKey: keys.addons });
    await client.invalidateQueries({ queryKey: chainsQuery().queryKey });
    await client.invalidateQueries({ queryKey: keys.library });
  };
}

/**
 * A change a row or card makes: run it, refresh what it reaches, and keep the server's words when
 * it is refused, shown beside that row until dismissed or the next try.
 */
export function useAction() {
  const refresh = useRefresh();
  const [refusal, setRefusal] = useState<string | null>(null);
  const run = async (f: () => Promise<unknown>) => {
    setRefusal(null);
    try {
      await f();
      await refresh();
    } catch (e) {
      setRefusal(messageOf(e));
    }
  };
  return { run, refusal, dismiss: () => setRefusal(null) };
}

/** The server's words for a refusal; anything else as it came. */
export const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export const isStale = (e: unknown): boolean => e instanceof ApiError && e.is('addon_review_stale');

/** `file:line` of an add-on problem, as the CLI prints it. */
export const at = (p: { file: string; line: number | null }): string =>
  p.line === null ? p.file : `${p.file}:${p.line}`;

/** The first free name of `name`, `name-copy`, `name-copy-2`…: the default of a copy's name field. */
export function freeName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  for (let i = 1; ; i++) {
    const n = i === 1 ? `${name}-copy` : `${name}-copy-${i}`;
    if (!taken.has(n)) return n;
  }
}

/** `release:ship` → `ship`: a copy is named after the add-on's own name by default. */
export const bareName = (ref: string): string => ref.slice(ref.indexOf(':') + 1);
