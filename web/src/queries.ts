import { infiniteQueryOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { AnalyticsGroup } from '../../src/contract/analytics.js';
import { ApiError, callRoute, callRouteTagged, routes, type AnswerOf, type Item } from './api.js';

/*
 * Every query the board makes: its key and its fetcher, in one place, so a screen that reads
 * something and a move that makes it stale name it the same way. Screens spread a builder into
 * useQuery (`useQuery(itemQuery(id))`, adding `enabled` and the like); invalidations use the same
 * builders' keys, or the prefixes in `keys` for a family of them.
 *
 * Everything an item shows lives under `['item', id]`, so the live stream refreshes an item's page,
 * threads, diff and fix target by that one prefix; its draft does not (`['item-draft', …]`, see
 * itemDraftQuery). The item lists are `['items', archived]`.
 */

/** Key prefixes that name a family of queries, for invalidating all of them at once. */
export const keys = {
  /** Every list of items (the board's and the archived one). */
  lists: ['items'] as const,
  /** An item and everything read about it. */
  item: (id: string) => ['item', id] as const,
  /** Every open draft's list entry: invalidated `exact`, apart from each draft's own query. */
  drafts: ['drafts'] as const,
  /** The library and each component of it. */
  library: ['library'] as const,
  /** The add-ons and their updates. */
  addons: ['addons'] as const,
};

// Work items

/** Every item of one list, page by page (the list route answers at most 500 at a time). */
export async function allItems(archived: boolean): Promise<Item[]> {
  const out: Item[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await callRoute(routes.listItems, {
      query: { archived: archived ? 'true' : 'false', limit: 500, ...(cursor ? { cursor } : {}) },
    });
    out.push(...page.items);
    cursor = page.next_cursor ?? undefined;
    if (!cursor) return out;
  }
}

export const itemsQuery = (archived: boolean) =>
  queryOptions({ queryKey: [...keys.lists, archived] as const, queryFn: () => allItems(archived) });

export const itemQuery = (id: string) =>
  queryOptions({
    queryKey: keys.item(id),
    queryFn: ({ signal }) => callRoute(routes.getItem, { params: { id }, signal }),
  });

/** Past every seq there will be: reading backward from it gives the newest events. */
const NEWEST = Number.MAX_SAFE_INTEGER;

/** The item's newest `limit` events (the peek reads 50, the item page 1000). */
export const itemEventsQuery = (id: string, limit: number) =>
  queryOptions({
    queryKey: [...keys.item(id), 'events', limit] as const,
    queryFn: () => callRoute(routes.readItemEvents, { params: { id }, query: { limit, before: NEWEST } }),
  });

/** The item's own chain once started, else its chain file's: keyed by the start, which changes it. */
export const itemChainQuery = (id: string, startedAt: string | null) =>
  queryOptions({
    queryKey: [...keys.item(id), 'chain', startedAt] as const,
    queryFn: () => callRoute(routes.getItemChain, { params: { id } }),
  });

/**
 * The item as the cache holds it now. A move puts the new item in place and then refreshes the
 * item's reads at once, before the screens asking them have redrawn with it: each read below looks
 * here first, so it does not ask for what the item just stopped having (a 404 or 409 in the console).
 */
const cachedItem = (client: QueryClient, id: string) => client.getQueryData<Item>(keys.item(id));

/** The change size against the base (counts, no patches); null before the item has a worktree. */
export const itemChangesQuery = (item: Item) =>
  queryOptions({
    queryKey: [...keys.item(item.id), 'changes', item.updated_at] as const,
    queryFn: async ({ client }) => {
      if (cachedItem(client, item.id)?.has_worktree === false) return null;
      try {
        return await callRoute(routes.itemDiff, {
          params: { id: item.id },
          query: { format: 'stat', limit: 500 },
        });
      } catch (e) {
        if (e instanceof ApiError && (e.status === 409 || e.status === 422)) return null;
        throw e;
      }
    },
  });

/** The open review threads a gate's decision weighs. */
export const openThreadsQuery = (item: Item) =>
  queryOptions({
    queryKey: [...keys.item(item.id), 'threads', item.updated_at] as const,
    queryFn: () => callRoute(routes.listItemThreads, { params: { id: item.id }, query: { open_only: '1' } }),
  });

/** Where a completed item's change is: its branches and their commits (read again when it changes). */
export const itemCommitsQuery = (item: Item) =>
  queryOptions({
    queryKey: [...keys.item(item.id), 'commits', item.updated_at] as const,
    queryFn: () => callRoute(routes.itemCommits, { params: { id: item.id } }),
  });

/** Every review thread of the item, open or resolved (the review page). */
export const reviewThreadsQuery = (id: string) =>
  queryOptions({
    queryKey: [...keys.item(id), 'review-threads'] as const,
    queryFn: () => callRoute(routes.listItemThreads, { params: { id } }),
  });

export const itemSessionsQuery = (id: string) =>
  queryOptions({
    queryKey: [...keys.item(id), 'sessions'] as const,
    queryFn: () => callRoute(routes.listSessions, { params: { id } }),
  });

/** The pending gate's document, or null when the gate shows none (the route's 404). */
export const gateDocQuery = (id: string, gate: string | null) =>
  queryOptions({
    queryKey: [...keys.item(id), 'artifact', gate] as const,
    queryFn: async ({ client }) => {
      const now = cachedItem(client, id);
      if (now && (!now.gate_document || now.current_node !== gate)) return null;
      try {
        return await callRoute(routes.gateArtifact, { params: { id } });
      } catch (e) {
        if (e instanceof ApiError && e.status === 404) return null;
        throw e;
      }
    },
  });

export const itemDocumentsQuery = (id: string) =>
  queryOptions({
    queryKey: [...keys.item(id), 'documents'] as const,
    queryFn: () => callRoute(routes.itemDocuments, { params: { id } }),
  });

/** What a request for changes would rerun: the fix target, or `node` when one is chosen. */
export const fixTargetQuery = (id: string, node: string) =>
  queryOptions({
    queryKey: [...keys.item(id), 'fix-target', node] as const,
    queryFn: () => callRoute(routes.getFixTarget, { params: { id }, query: node ? { node } : {} }),
  });

/** What the review's diff shows: the compare's two ends and its options. */
export interface DiffOptions {
  from: string;
  to: string;
  ignoreWhitespace: boolean;
}

/** Files per page: a big change arrives a page at a time, asked for with "More files". */
const DIFF_PAGE = 50;

/** The review's diff, a page of files at a time; its key is the prefix a Viewed mark refreshes. */
export const compareKey = (id: string) => [...keys.item(id), 'review-diff'] as const;

export const compareQuery = (id: string, o: DiffOptions) =>
  infiniteQueryOptions({
    queryKey: [...compareKey(id), o.from, o.to, o.ignoreWhitespace] as const,
    initialPageParam: 0,
    queryFn: ({ pageParam }) =>
      callRoute(routes.itemCompare, {
        params: { id },
        query: {
          from: o.from,
          to: o.to,
          offset: pageParam,
          limit: DIFF_PAGE,
          ...(o.ignoreWhitespace ? { ignore_whitespace: '1' } : {}),
        },
      }),
    getNextPageParam: (last) => last.next_offset ?? undefined,
  });

/**
 * The item's draft, under a key of its own (not the item's: a refetch of the item must not ask
 * for it). When it is read again is useItemDraft's business (item/draft/draft-query.ts).
 */
export const itemDraftQuery = (item: Pick<Item, 'id'>) =>
  queryOptions({
    queryKey: ['item-draft', item.id] as const,
    queryFn: () => callRoute(routes.getItemDraft, { params: { id: item.id } }),
  });

// Templates

export const chainsQuery = () =>
  queryOptions({ queryKey: ['chains'] as const, queryFn: () => callRoute(routes.listChains) });

/** One chain with extends expanded (the board's node ticks, the steering preview's tasks). */
export const resolvedChainQuery = (id: string) =>
  queryOptions({
    queryKey: ['chain-resolved', id] as const,
    queryFn: () => callRoute(routes.resolvedChain, { params: { id } }),
  });

export const libraryQuery = () =>
  queryOptions({ queryKey: keys.library, queryFn: () => callRoute(routes.getLibrary) });

export const libraryComponentQuery = (ref: string) =>
  queryOptions({
    queryKey: [...keys.library, ref] as const,
    queryFn: () => callRoute(routes.getLibraryComponent, { params: { ref } }),
  });

/** library.yaml as text, with the ETag a save sends back. */
export const libraryFileQuery = () =>
  queryOptions({
    queryKey: ['library-file'] as const,
    queryFn: () => callRouteTagged(routes.getLibraryFile),
  });

export interface SteeringAsk {
  chain: string;
  task: string;
  repo: string;
}

export const steeringPreviewQuery = (shown: SteeringAsk | null) =>
  queryOptions({
    queryKey: ['steering-preview', shown] as const,
    queryFn: () =>
      callRoute(routes.steeringPreview, {
        query: {
          chain: shown?.chain ?? '',
          task: shown?.task ?? '',
          ...(shown?.repo ? { repo: shown.repo } : {}),
        },
      }),
  });

export const harnessesQuery = () =>
  queryOptions({ queryKey: ['harnesses'] as const, queryFn: () => callRoute(routes.listHarnesses) });

export const providersQuery = () =>
  queryOptions({ queryKey: ['providers'] as const, queryFn: () => callRoute(routes.listProviders) });

// Drafts

/** Every open draft (invalidate it with `exact: true`: each draft's own query shares the prefix). */
export const draftsQuery = () =>
  queryOptions({ queryKey: keys.drafts, queryFn: () => callRoute(routes.listDrafts) });

/**
 * One chain's draft. `onRead` sees each answer before the editor does (the editor keeps the
 * published texts a three-way merge needs, templates/chains/merge.ts, which stays out of this
 * module: it loads with the Templates page).
 */
export const chainDraftQuery = (id: string, onRead?: (d: AnswerOf<'getDraft'>) => Promise<void>) =>
  queryOptions({
    queryKey: [...keys.drafts, 'chains', id] as const,
    queryFn: async () => {
      const d = await callRoute(routes.getDraft, { params: { area: 'chains', key: id } });
      await onRead?.(d);
      return d;
    },
  });

/** A settings area's draft (its key is the area's name): policy, intake, harnesses. */
export const areaDraftQuery = (area: 'policy' | 'intake' | 'harnesses' | 'repos') =>
  queryOptions({
    queryKey: ['draft', area] as const,
    queryFn: () => callRoute(routes.getDraft, { params: { area, key: area } }),
  });

/** The policy draft's caps on one chain; keyed by the draft's last write, so an op refetches it. */
export const policyPreviewQuery = (chain: string, updatedAt: string | null) =>
  queryOptions({
    queryKey: [...policyPreviewKey, chain, updatedAt] as const,
    queryFn: ({ signal }) =>
      callRoute(routes.policyPreview, { params: { key: 'policy' }, query: { chain }, signal }),
  });

/** Every policy preview: an op cancels one in flight (see settings/draft.tsx). */
export const policyPreviewKey = ['policy-preview'] as const;

// Add-ons

export const addonsQuery = () =>
  queryOptions({
    queryKey: keys.addons,
    queryFn: ({ signal }) => callRoute(routes.listAddons, { signal }),
  });

/** The updates as this machine knows them: read without a fetch, so opening the tab reaches no remote. */
export const addonUpdatesQuery = () =>
  queryOptions({
    queryKey: [...keys.addons, 'updates'] as const,
    queryFn: ({ signal }) => callRoute(routes.checkUpdates, { query: { fetch: '0' }, signal }),
  });

/** What an add-on review is of: an install from a collection, or an update of an installed one. */
export type AddonReviewTarget =
  | { kind: 'install'; addon: string; collection: string; as: string | null }
  | { kind: 'update'; namespace: string };

/**
 * The review of an install or an update, as the server computes it. A review read earlier may not
 * be the add-on's now: it is read each time the panel opens, and kept by no cache.
 */
export const addonReviewQuery = (t: AddonReviewTarget) =>
  queryOptions({
    // Not under `keys.addons`: refreshing the add-ons after an install must not read its review again.
    queryKey: ['addon-review', t] as const,
    queryFn: ({ signal }) =>
      t.kind === 'update'
        ? callRoute(routes.reviewUpdate, { params: { namespace: t.namespace }, signal })
        : callRoute(routes.reviewInstall, {
            body: { addon: t.addon, collection: t.collection, ...(t.as ? { as: t.as } : {}) },
          }),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });

// Settings and the shell

export const reposQuery = () =>
  queryOptions({ queryKey: ['repos'] as const, queryFn: () => callRoute(routes.listRepos) });

export const policyQuery = () =>
  queryOptions({ queryKey: ['policy'] as const, queryFn: () => callRoute(routes.getPolicy) });

/** What this machine can jail tasks with (the server looks once a minute at most). */
export const sandboxQuery = () =>
  queryOptions({
    queryKey: ['sandbox'] as const,
    queryFn: () => callRoute(routes.getSandbox),
    staleTime: 60_000,
  });

/** theme.yaml: the shell applies it, Settings › Appearance writes it through the same key. */
export const themeQuery = () =>
  queryOptions({ queryKey: ['theme'] as const, queryFn: () => callRoute(routes.getTheme) });

export const accessQuery = () =>
  queryOptions({ queryKey: ['access'] as const, queryFn: () => callRoute(routes.getAccess) });

export const notifyQuery = () =>
  queryOptions({ queryKey: ['notify'] as const, queryFn: () => callRoute(routes.getNotify) });

export const storageQuery = () =>
  queryOptions({ queryKey: ['storage'] as const, queryFn: () => callRoute(routes.getStorage) });

export const intakeQuery = () =>
  queryOptions({ queryKey: ['intake'] as const, queryFn: () => callRoute(routes.getIntake) });

export const intakeChecksQuery = () =>
  queryOptions({
    queryKey: ['intake-checks'] as const,
    queryFn: () => callRoute(routes.listIntakeChecks, { query: { limit: 20 } }),
  });

/** What a restart or a reload would apply (the shell's chip). */
export const applyQuery = () =>
  queryOptions({ queryKey: ['apply'] as const, queryFn: () => callRoute(routes.getApply) });

export const healthQuery = () =>
  queryOptions({ queryKey: ['health'] as const, queryFn: () => callRoute(routes.getHealth) });

/** About's facts and the text of Copy diagnostics (the diagnostics route, src/contract/routes/admin.ts). */
export const diagnosticsQuery = () =>
  queryOptions({ queryKey: ['diagnostics'] as const, queryFn: () => callRoute(routes.getDiagnostics) });

/** The last update check of the stable channel, as the server keeps it: reading it asks no feed. */
export const updateQuery = () =>
  queryOptions({
    queryKey: ['update'] as const,
    queryFn: () => callRoute(routes.getUpdate, { query: { channel: 'stable' } }),
  });

export const searchQuery = (q: string) =>
  queryOptions({
    queryKey: ['search', q] as const,
    queryFn: () => callRoute(routes.search, { query: { q, limit: 30 } }),
  });

export interface AnalyticsAsk {
  group: AnalyticsGroup;
  from: string;
  to: string;
}

export const analyticsQuery = (a: AnalyticsAsk) =>
  queryOptions({
    queryKey: ['analytics', a.group, a.from, a.to] as const,
    queryFn: () =>
      callRoute(routes.getAnalytics, {
        query: { group_by: a.group, ...(a.from ? { from: a.from } : {}), ...(a.to ? { to: a.to } : {}) },
      }),
  });
