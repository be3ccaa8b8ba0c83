import type { z } from 'zod';
import type { ErrorCode } from '../../src/contract/errors.js';
import type { HealthAnswer } from '../../src/contract/health.js';
import type { ItemsPage, WorkItem } from '../../src/contract/items.js';
import type { RouteContract } from '../../src/contract/route.js';
import type * as Admin from '../../src/contract/routes/admin.js';
import type * as Addons from '../../src/contract/routes/addons.js';
import type * as Analytics from '../../src/contract/routes/analytics.js';
import type * as Apply from '../../src/contract/routes/apply.js';
import type * as ChainTest from '../../src/contract/routes/chain-test.js';
import type * as Drafts from '../../src/contract/routes/drafts.js';
import type * as Harnesses from '../../src/contract/routes/harnesses.js';
import type * as HealthRoute from '../../src/contract/routes/health.js';
import type * as Intake from '../../src/contract/routes/intake.js';
import type * as Notify from '../../src/contract/routes/notify.js';
import type * as PolicyPreview from '../../src/contract/routes/policy-preview.js';
import type * as Policy from '../../src/contract/routes/policy.js';
import type * as Sandbox from '../../src/contract/routes/sandbox.js';
import type * as Repos from '../../src/contract/routes/repos.js';
import type * as Search from '../../src/contract/routes/search.js';
import type * as Settings from '../../src/contract/routes/settings.js';
import type * as Storage from '../../src/contract/routes/storage.js';
import type * as Templates from '../../src/contract/routes/templates.js';
import type * as Budget from '../../src/contract/routes/work-items/budget.js';
import type * as Chain from '../../src/contract/routes/work-items/chain.js';
import type * as Documents from '../../src/contract/routes/work-items/documents.js';
import type * as ItemDraft from '../../src/contract/routes/work-items/draft.js';
import type * as Escalate from '../../src/contract/routes/work-items/escalate.js';
import type * as Events from '../../src/contract/routes/work-items/events.js';
import type * as Gates from '../../src/contract/routes/work-items/gates.js';
import type * as Items from '../../src/contract/routes/work-items/index.js';
import type * as MergeRequests from '../../src/contract/routes/work-items/merge-requests.js';
import type * as Moves from '../../src/contract/routes/work-items/moves.js';
import type * as Review from '../../src/contract/routes/work-items/review.js';
import type * as Run from '../../src/contract/routes/work-items/run.js';
import type * as Sessions from '../../src/contract/routes/work-items/sessions.js';
import type * as Threads from '../../src/contract/routes/work-items/threads.js';
import type * as Update from '../../src/contract/routes/update.js';
import type * as EventStream from '../../src/contract/routes/ws/events.js';

/*
 * The board's HTTP client, contract-first as the CLI's (src/client/http.ts): every call names a
 * route of src/contract/routes/, and its params, query, body and headers are typed by that route's
 * schemas, its answer by the route's success schema. The board bundles no schema code, so the
 * contracts come in as types only (`import type`), and each route's method and literal path are
 * written once more in `routes` below, where the compiler holds them to the contract's own. No
 * answer is validated in the browser: the board is served by the very server it calls, and the
 * browser tests run every call against it. This is the one module of the board that writes an API
 * path (a test checks that).
 */

export type Item = WorkItem;
export type Page = z.infer<typeof ItemsPage>;
export type Health = HealthAnswer;

/**
 * An API refusal: the server's `{detail, code}` with its status, and the whole body, since some
 * refusals carry more than a sentence (a stale publish's three versions, a YAML error's line).
 * `code` is the catalogue's (src/contract/errors.ts): the server answering is this board's own, so a
 * comparison with a code the catalogue lacks does not compile. It is null when the answer carried no
 * error body (a proxy's page) or never came (the network).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | null,
    detail: string,
    readonly body: unknown = null,
  ) {
    super(detail);
    this.name = 'ApiError';
  }

  /** Whether the refusal has this code. */
  is(code: ErrorCode): boolean {
    return this.code === code;
  }
}

/** A route as the board calls it: the contract's method and literal path, and the contract as a type. */
export interface Route<R extends RouteContract> {
  readonly method: R['method'];
  readonly path: R['path'];
  /** Never set: it carries the contract's type to `callRoute`, since its schemas stay out of the bundle. */
  readonly contract?: R;
}

/** The compiler checks `method` and `path` against the contract `R` names. */
const route = <R extends RouteContract>(method: R['method'], path: R['path']): Route<R> => ({ method, path });

/** Every route the board calls. */
export const routes = {
  // Work items
  listItems: route<typeof Items.listItems>('GET', '/api/work-items'),
  createItem: route<typeof Items.createItem>('POST', '/api/work-items'),
  getItem: route<typeof Items.getItem>('GET', '/api/work-items/:id'),
  patchItem: route<typeof Items.patchItem>('PATCH', '/api/work-items/:id'),
  duplicateItem: route<typeof Items.duplicateItem>('POST', '/api/work-items/:id/duplicate'),
  bulkItems: route<typeof Items.bulkItems>('POST', '/api/work-items/bulk'),
  resumeItem: route<typeof Run.resumeItem>('POST', '/api/work-items/:id/resume'),
  pauseItem: route<typeof Run.pauseItem>('POST', '/api/work-items/:id/pause'),
  retryItem: route<typeof Run.retryItem>('POST', '/api/work-items/:id/retry'),
  unblockItem: route<typeof Run.unblockItem>('POST', '/api/work-items/:id/unblock'),
  cancelPreview: route<typeof Moves.cancelPreview>('GET', '/api/work-items/:id/cancel-preview'),
  cancelItem: route<typeof Moves.cancelItem>('POST', '/api/work-items/:id/cancel'),
  completeItem: route<typeof Moves.completeItem>('POST', '/api/work-items/:id/complete'),
  archiveItem: route<typeof Moves.archiveItem>('POST', '/api/work-items/:id/archive'),
  reopenMr: route<typeof MergeRequests.reopenMr>('POST', '/api/work-items/:id/reopen-mr'),
  escalateItem: route<typeof Escalate.escalateItem>('POST', '/api/work-items/:id/escalate'),
  raiseBudget: route<typeof Budget.raiseBudget>('POST', '/api/work-items/:id/budget/raise'),
  approveGate: route<typeof Gates.approveGate>('POST', '/api/work-items/:id/gates/:gate/approve'),
  rejectGate: route<typeof Gates.rejectGate>('POST', '/api/work-items/:id/gates/:gate/reject'),
  gateArtifact: route<typeof Gates.gateArtifact>('GET', '/api/work-items/:id/artifact'),
  itemDocuments: route<typeof Documents.itemDocuments>('GET', '/api/work-items/:id/documents'),
  openWorktree: route<typeof Documents.openWorktree>('POST', '/api/work-items/:id/open-worktree'),
  readItemEvents: route<typeof Events.readItemEvents>('GET', '/api/work-items/:id/events'),
  getItemChain: route<typeof Chain.getItemChain>('GET', '/api/work-items/:id/chain'),
  listSessions: route<typeof Sessions.listSessions>('GET', '/api/work-items/:id/sessions'),
  readSessionLog: route<typeof Sessions.readSessionLog>('GET', '/api/work-items/:id/sessions/:session/log'),
  itemDiff: route<typeof Review.itemDiff>('GET', '/api/work-items/:id/diff'),
  itemCompare: route<typeof Review.itemCompare>('GET', '/api/work-items/:id/compare'),
  itemCommits: route<typeof Review.itemCommits>('GET', '/api/work-items/:id/commits'),
  markViewed: route<typeof Review.markViewed>('PUT', '/api/work-items/:id/viewed'),
  clearViewedMark: route<typeof Review.clearViewedMark>('DELETE', '/api/work-items/:id/viewed'),
  listItemThreads: route<typeof Threads.listItemThreads>('GET', '/api/work-items/:id/threads'),
  postThread: route<typeof Threads.postThread>('POST', '/api/work-items/:id/threads'),
  resolveThread: route<typeof Threads.resolveThread>('POST', '/api/work-items/:id/threads/:thread/resolve'),
  reopenThread: route<typeof Threads.reopenThread>('POST', '/api/work-items/:id/threads/:thread/reopen'),
  getFixTarget: route<typeof Threads.getFixTarget>('GET', '/api/work-items/:id/fix-target'),
  submitReview: route<typeof Threads.submitReview>('POST', '/api/work-items/:id/review'),
  getItemDraft: route<typeof ItemDraft.getItemDraft>('GET', '/api/work-items/:id/draft'),
  putItemDraft: route<typeof ItemDraft.putItemDraft>('PUT', '/api/work-items/:id/draft'),
  deleteItemDraft: route<typeof ItemDraft.deleteItemDraft>('DELETE', '/api/work-items/:id/draft'),
  applyItemDraft: route<typeof ItemDraft.applyItemDraft>('POST', '/api/work-items/:id/draft/apply'),

  // Repositories
  listRepos: route<typeof Repos.listRepos>('GET', '/api/repos'),
  probeRepo: route<typeof Repos.probeRepo>('POST', '/api/repos/probe'),
  connectRepo: route<typeof Repos.connectRepo>('POST', '/api/repos'),
  patchRepo: route<typeof Repos.patchRepo>('PATCH', '/api/repos'),
  disconnectRepo: route<typeof Repos.disconnectRepo>('DELETE', '/api/repos'),

  // Templates and drafts
  listChains: route<typeof Templates.listChains>('GET', '/api/templates/chains'),
  resolvedChain: route<typeof Templates.resolvedChain>('GET', '/api/templates/chains/:id/resolved'),
  testChain: route<typeof ChainTest.testChain>('POST', '/api/templates/chains/:id/test'),
  getLibrary: route<typeof Templates.getLibrary>('GET', '/api/templates/library'),
  getLibraryComponent: route<typeof Templates.getLibraryComponent>('GET', '/api/templates/library/:ref'),
  getLibraryFile: route<typeof Templates.getLibraryFile>('GET', '/api/templates/library/file'),
  putLibrary: route<typeof Templates.putLibrary>('PUT', '/api/templates/library'),
  steeringPreview: route<typeof Templates.steeringPreview>('GET', '/api/templates/steering/preview'),
  listDrafts: route<typeof Drafts.listDrafts>('GET', '/api/drafts'),
  getDraft: route<typeof Drafts.getDraft>('GET', '/api/drafts/:area/:key'),
  getFragment: route<typeof Drafts.getFragment>('GET', '/api/drafts/:area/:key/fragment'),
  putDraftFile: route<typeof Drafts.putDraftFile>('PUT', '/api/drafts/:area/:key/files/:file'),
  draftOps: route<typeof Drafts.draftOps>('POST', '/api/drafts/:area/:key/ops'),
  undoDraft: route<typeof Drafts.undoDraft>('POST', '/api/drafts/:area/:key/undo'),
  rebaseDraft: route<typeof Drafts.rebaseDraft>('POST', '/api/drafts/:area/:key/rebase'),
  publishDraft: route<typeof Drafts.publishDraft>('POST', '/api/drafts/:area/:key/publish'),
  discardDraft: route<typeof Drafts.discardDraft>('DELETE', '/api/drafts/:area/:key'),
  policyPreview: route<typeof PolicyPreview.policyPreview>('GET', '/api/drafts/policy/:key/preview'),
  listHarnesses: route<typeof Harnesses.listHarnesses>('GET', '/api/harnesses'),
  listProviders: route<typeof Harnesses.listProviders>('GET', '/api/harnesses/providers'),

  // Add-ons
  listAddons: route<typeof Addons.listAddons>('GET', '/api/addons'),
  checkUpdates: route<typeof Addons.checkUpdates>('GET', '/api/addons/updates'),
  addCollection: route<typeof Addons.addCollection>('POST', '/api/addons/collections'),
  patchCollection: route<typeof Addons.patchCollection>('PATCH', '/api/addons/collections/:name'),
  removeCollection: route<typeof Addons.removeCollection>('DELETE', '/api/addons/collections/:name'),
  reviewInstall: route<typeof Addons.reviewInstall>('POST', '/api/addons/review'),
  installAddon: route<typeof Addons.installAddon>('POST', '/api/addons'),
  reviewUpdate: route<typeof Addons.reviewUpdate>('GET', '/api/addons/:namespace/update'),
  applyUpdate: route<typeof Addons.applyUpdate>('POST', '/api/addons/:namespace/update'),
  patchAddon: route<typeof Addons.patchAddon>('PATCH', '/api/addons/:namespace'),
  uninstallAddon: route<typeof Addons.uninstallAddon>('DELETE', '/api/addons/:namespace'),

  // Settings and the shell
  getPolicy: route<typeof Policy.getPolicy>('GET', '/api/policy'),
  getSandbox: route<typeof Sandbox.getSandbox>('GET', '/api/sandbox'),
  getTheme: route<typeof Settings.getTheme>('GET', '/api/theme'),
  putTheme: route<typeof Settings.putTheme>('PUT', '/api/theme'),
  getAccess: route<typeof Settings.getAccess>('GET', '/api/access'),
  putAccess: route<typeof Settings.putAccess>('PUT', '/api/access'),
  putAccessPassword: route<typeof Settings.putAccessPassword>('PUT', '/api/access/password'),
  rotateTokens: route<typeof Settings.rotateTokens>('POST', '/api/access/rotate-tokens'),
  getNotify: route<typeof Notify.getNotify>('GET', '/api/notify'),
  putNotify: route<typeof Notify.putNotify>('PUT', '/api/notify'),
  testNotify: route<typeof Notify.testNotify>('POST', '/api/notify/test'),
  getStorage: route<typeof Storage.getStorage>('GET', '/api/storage'),
  cleanupStorage: route<typeof Storage.cleanupStorage>('POST', '/api/storage/cleanup'),
  getIntake: route<typeof Intake.getIntake>('GET', '/api/intake'),
  listIntakeChecks: route<typeof Intake.listIntakeChecks>('GET', '/api/intake/checks'),
  search: route<typeof Search.search>('GET', '/api/search'),
  getAnalytics: route<typeof Analytics.getAnalytics>('GET', '/api/analytics'),
  getApply: route<typeof Apply.getApply>('GET', '/api/apply'),
  getHealth: route<typeof HealthRoute.getHealth>('GET', '/api/health'),
  getDiagnostics: route<typeof Admin.getDiagnostics>('GET', '/api/admin/diagnostics'),
  getUpdate: route<typeof Update.getUpdate>('GET', '/api/update'),
  checkUpdate: route<typeof Update.checkUpdate>('POST', '/api/update/check'),
} as const;

const eventStream = route<typeof EventStream.eventStream>('GET', '/api/ws/events');

/** The live event stream's WebSocket address on this page's host, from after `afterSeq` when given. */
export function eventStreamUrl(afterSeq: number | null): string {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const query =
    afterSeq === null ? '' : `?${new URLSearchParams({ after_seq: String(afterSeq) }).toString()}`;
  return `${proto}//${location.host}${eventStream.path}${query}`;
}

type Part<K extends string, S> = S extends z.ZodType
  ? Record<never, never> extends z.input<S>
    ? { [P in K]?: z.input<S> }
    : { [P in K]: z.input<S> }
  : { [P in K]?: never };

/** What a call of a route sends: its path params, query, body and headers, each as the route takes it. */
export type RouteInput<R extends RouteContract> = Part<'params', R['params']> &
  Part<'query', R['query']> &
  Part<'body', R['body']> &
  Part<'headers', R['headers']>;

/** A call's input, and the signal that cancels it (React Query's, for a read an answer made stale). */
export type CallInput<R extends RouteContract> = RouteInput<R> & { signal?: AbortSignal };

type Declared<R extends RouteContract> =
  R['responses'] extends Readonly<Record<number, z.ZodType>> ? R['responses'] : Record<never, never>;

/** The body of a route's success answer, as its schema outputs it. */
export type Success<R extends RouteContract> = {
  [S in keyof Declared<R> & (200 | 201 | 202 | 204)]: z.output<Declared<R>[S]>;
}[keyof Declared<R> & (200 | 201 | 202 | 204)];

/** The success body of one of `routes`, by name: `AnswerOf<'getDraft'>`. */
export type AnswerOf<K extends keyof typeof routes> =
  (typeof routes)[K] extends Route<infer R> ? Success<R> : never;

/** The input is optional for a route that needs nothing. */
type InputArg<R extends RouteContract> =
  Record<never, never> extends RouteInput<R> ? [input?: CallInput<R>] : [input: CallInput<R>];

interface RawInput {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
  headers?: Record<string, unknown>;
  signal?: AbortSignal;
}

/** A param, query or header value as text: what the route's schema reads back (coerced where it is a number). */
function wireText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return JSON.stringify(value) ?? '';
}

/** The URL of a call: the path with each `:param` substituted and encoded, then the query. */
export function routeUrl(r: Route<RouteContract>, input: RawInput = {}): string {
  const path = r.path.replace(/:(\w+)/g, (_, key: string) =>
    encodeURIComponent(wireText(input.params?.[key] ?? '')),
  );
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(input.query ?? {})) if (v !== undefined) query.append(k, wireText(v));
  return query.size > 0 ? `${path}?${query.toString()}` : path;
}

async function exchange(r: Route<RouteContract>, input: RawInput): Promise<{ body: unknown; res: Response }> {
  // A write without a body still sends `{}`, as the board always has: a JSON body is what every
  // write route reads, and an empty one is its "nothing more".
  const body = input.body !== undefined ? input.body : r.method === 'POST' ? {} : undefined;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  for (const [k, v] of Object.entries(input.headers ?? {})) if (v !== undefined) headers[k] = wireText(v);
  let res: Response;
  try {
    res = await fetch(routeUrl(r, input), {
      method: r.method,
      signal: input.signal,
      credentials: 'same-origin',
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    // A cancelled read is React Query's business: it knows the AbortError.
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    throw new ApiError(0, null, e instanceof Error ? e.message : String(e));
  }
  const text = await res.text();
  const isJson = (res.headers.get('content-type') ?? '').includes('json');
  let parsed: unknown = isJson ? null : text;
  if (isJson && text !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      // A proxy's page that says it is JSON: the status says enough.
    }
  }
  if (res.status === 204) parsed = null;
  if (!res.ok) {
    const e = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
    const code = typeof e.code === 'string' ? (e.code as ErrorCode) : null;
    const detail = typeof e.detail === 'string' ? e.detail : `HTTP ${res.status}`;
    throw new ApiError(res.status, code, detail, parsed);
  }
  return { body: parsed, res };
}

/**
 * Calls a route and answers its success body, typed by the route's contract; an error status is
 * an ApiError. The answer is not checked in the browser (see the top of this file).
 */
export async function callRoute<R extends RouteContract>(
  r: Route<R>,
  ...[input]: InputArg<R>
): Promise<Success<R>> {
  const { body } = await exchange(r, (input ?? {}) as RawInput);
  return body as Success<R>;
}

/** `callRoute`, with the answer's ETag, for a save that sends it back as `If-Match`. */
export async function callRouteTagged<R extends RouteContract>(
  r: Route<R>,
  ...[input]: InputArg<R>
): Promise<{ body: Success<R>; etag: string | null }> {
  const { body, res } = await exchange(r, (input ?? {}) as RawInput);
  return { body: body as Success<R>, etag: res.headers.get('etag') };
}
