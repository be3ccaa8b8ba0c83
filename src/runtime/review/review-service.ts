import { existsSync } from 'node:fs';
import type { Logger } from 'pino';
import { JigError } from '../../contract/errors.js';
import {
  flagOn,
  REVIEW_TARGET_HINT,
  type DiffFormat,
  type ItemDiff,
  type ReviewAttempt,
} from '../../contract/review.js';
import { safeRelativePath } from '../../core/review/paths.js';
import type { Store } from '../../store/database.js';
import { addAttempt, clearViewed, listAttempts, setViewed, viewedMarks } from '../../store/review.js';
import { listReviews } from '../../store/threads.js';
import type { ItemRecord } from '../../store/work-items.js';
import { blobsAt, changedPaths, diffCommits } from './diff.js';
import { keepCommit, snapshotCommit, snapshotIfPresent } from './snapshot.js';
import { diffAcross, memberSources } from './workspace-diff.js';
import { itemCommits } from './branch-commits.js';
import type { ItemCommits } from '../../contract/review.js';

/**
 * Jig serves one person (its owner): every login, token and loopback caller is that person. Marks
 * and reviews still carry a person, so a server with several people adds them without a migration.
 */
export const OWNER = 'owner';

const DEFAULT_LIMIT = 100;

export interface DiffAsk {
  format?: DiffFormat | undefined;
  ignore_whitespace?: string | undefined;
  offset?: number | undefined;
  limit?: number | undefined;
}

export interface CompareAsk extends DiffAsk {
  from?: string | undefined;
  to?: string | undefined;
  nodes?: string | undefined;
}

interface Where {
  /** Where git runs: the worktree, or the repository once the worktree is gone. */
  cwd: string;
  worktree: string | null;
  base: string;
}

/** An item's changes for review: diffs, compares between attempts, viewed marks. */
export class ReviewService {
  constructor(
    private readonly d: {
      store: Store;
      log: Logger;
      now: () => string;
      record: (id: string) => Promise<ItemRecord>;
    },
  ) {}

  /** The state this person last reviewed (each review records it), or null before a first review. */
  private async lastReviewed(id: string): Promise<string | null> {
    const mine = await listReviews(this.d.store.db, id, OWNER);
    return mine.reverse().find((r) => r.sha !== null)?.sha ?? null;
  }

  /** Where the item's change is: its branches and their commits past the base (branch-commits.ts). */
  async commits(id: string): Promise<ItemCommits> {
    return itemCommits(await this.d.record(id));
  }

  private where(rec: ItemRecord): Where {
    const worktree = rec.worktree_path && existsSync(rec.worktree_path) ? rec.worktree_path : null;
    if (!rec.base_ref) throw new JigError('item_not_started', {});
    // Attempt refs live in the repository every worktree shares: they outlive the worktree.
    const cwd = worktree ?? (existsSync(rec.repo) ? rec.repo : null);
    if (!cwd) throw new JigError('repo_gone', { path: rec.repo });
    return { cwd, worktree, base: rec.base_ref };
  }

  /**
   * Records the worktree as a node run left it, as the item's next attempt. Called by the walk at
   * the end of each exec node's run; a failure is logged, never fails the walk (review is a view).
   */
  async recordAttempt(rec: ItemRecord, node: string): Promise<void> {
    const worktree = rec.worktree_path;
    if (!worktree || !existsSync(worktree)) return;
    try {
      const sha = await snapshotCommit(worktree);
      const a = await addAttempt(this.d.store.db, rec.id, node, sha, this.d.now());
      await keepCommit(worktree, `refs/jig/items/${rec.id}/attempt-${a.n}`, sha);
    } catch (err) {
      this.d.log.warn({ err, item: rec.id, node }, 'could not record the attempt for review');
    }
  }

  attempts(id: string): Promise<ReviewAttempt[]> {
    return listAttempts(this.d.store.db, id);
  }

  private async latest(rec: ItemRecord, w: Where, attempts: ReviewAttempt[]): Promise<string> {
    const now = await snapshotIfPresent(w.worktree);
    if (now) return now;
    const last = attempts.at(-1);
    if (last) return last.sha;
    throw new JigError('item_not_started', {});
  }

  private async target(
    rec: ItemRecord,
    w: Where,
    attempts: ReviewAttempt[],
    name: string,
    field: string,
  ): Promise<string> {
    if (name === 'base') return w.base;
    if (name === 'latest') return this.latest(rec, w, attempts);
    const m = /^attempt:(\d+)$/.exec(name);
    if (m) {
      const a = attempts.find((x) => x.n === Number(m[1]));
      if (a) return a.sha;
      const known = attempts.length === 0 ? 'none recorded yet' : `1 to ${attempts.length}`;
      throw new JigError('validation_failed', {
        reason: `${field}: ${name} is no attempt of this item (${known})`,
      });
    }
    if (name === 'last_review') {
      const sha = await this.lastReviewed(rec.id);
      if (sha) return sha;
      throw new JigError('validation_failed', { reason: `${field}: you have not reviewed this item yet` });
    }
    throw new JigError('validation_failed', {
      reason: `${field}: ${name} is not one of ${REVIEW_TARGET_HINT}`,
    });
  }

  /** The item's changes against its base: everything the agents did, uncommitted work included. */
  async diff(id: string, ask: DiffAsk): Promise<ItemDiff> {
    return this.compare(id, { ...ask, from: 'base', to: 'latest' });
  }

  async compare(id: string, ask: CompareAsk): Promise<ItemDiff> {
    const rec = await this.d.record(id);
    const w = this.where(rec);
    const attempts = await this.attempts(id);
    const fromName = ask.from ?? 'base';
    const toName = ask.to ?? 'latest';
    const from = await this.target(rec, w, attempts, fromName, 'query.from');
    const to = await this.target(rec, w, attempts, toName, 'query.to');
    const nodes =
      ask.nodes
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean) ?? null;
    const onlyPaths = nodes ? await this.pathsOfNodes(rec, w, attempts, nodes) : null;
    const format = ask.format ?? 'patch';
    const ignoreWhitespace = flagOn(ask.ignore_whitespace);
    const offset = ask.offset ?? 0;
    const opts = { format, ignoreWhitespace, offset, limit: ask.limit ?? DEFAULT_LIMIT, onlyPaths };
    // A workspace item's whole change (base to latest) shows its members' files too; attempts and
    // node filters are the root's.
    const across = rec.workspace && fromName === 'base' && toName === 'latest' && !nodes;
    const page = across
      ? await diffAcross([{ member: null, cwd: w.cwd, from, to }, ...(await memberSources(rec))], opts)
      : await diffCommits(w.cwd, from, to, opts);
    const viewed = await this.viewedAt(
      rec.id,
      w.cwd,
      to,
      toName === 'latest',
      page.files.flatMap((f) => (f.member === undefined ? [f.path] : [])),
    );
    return {
      from: { target: fromName, sha: from },
      to: { target: toName, sha: to },
      format,
      ignore_whitespace: ignoreWhitespace,
      nodes,
      totals: page.totals,
      files: page.files.map((f) => ({ ...f, viewed: viewed.has(f.path) })),
      offset,
      next_offset: page.next_offset,
      attempts,
    };
  }

  /** Files the runs of `nodes` changed: each attempt against the one before it (the base first). */
  private async pathsOfNodes(
    rec: ItemRecord,
    w: Where,
    attempts: ReviewAttempt[],
    nodes: string[],
  ): Promise<Set<string>> {
    const chain = rec.chain_definition?.nodes.map((n) => n.id) ?? [];
    const unknown = nodes.filter((n) => !chain.includes(n));
    if (unknown.length > 0)
      throw new JigError('validation_failed', {
        reason: `query.nodes: ${unknown.join(', ')} ${unknown.length === 1 ? 'is no node' : 'are no nodes'} of this item's chain`,
      });
    const paths = new Set<string>();
    let before = w.base;
    for (const a of attempts) {
      if (nodes.includes(a.node)) for (const p of await changedPaths(w.cwd, before, a.sha)) paths.add(p);
      before = a.sha;
    }
    return paths;
  }

  /**
   * Paths of `paths` this person marked viewed with the blob they have at `to`. Against the
   * latest state a mark whose file changed since is stale: it is cleared.
   */
  private async viewedAt(
    id: string,
    cwd: string,
    to: string,
    latest: boolean,
    paths: string[],
  ): Promise<Set<string>> {
    const marks = await viewedMarks(this.d.store.db, id, OWNER);
    const marked = paths.filter((p) => marks.has(p));
    const blobs = await blobsAt(cwd, to, marked);
    const stale = marked.filter((p) => blobs.get(p) !== marks.get(p));
    if (latest) await clearViewed(this.d.store.db, id, OWNER, stale);
    return new Set(marked.filter((p) => !stale.includes(p)));
  }

  /** Marks `path` viewed as it is now (or clears the mark). The path must be among the changes. */
  async markViewed(id: string, rawPath: string, on: boolean): Promise<{ path: string; viewed: boolean }> {
    const path = safeRelativePath(rawPath, 'body.path');
    const rec = await this.d.record(id);
    if (!on) {
      await clearViewed(this.d.store.db, id, OWNER, [path]);
      return { path, viewed: false };
    }
    const w = this.where(rec);
    const latest = await this.latest(rec, w, await this.attempts(id));
    if (!(await changedPaths(w.cwd, w.base, latest)).includes(path))
      throw new JigError('validation_failed', {
        reason: `body.path: ${path} is not among the item's changes`,
      });
    const blob = (await blobsAt(w.cwd, latest, [path])).get(path) ?? '-';
    await setViewed(this.d.store.db, { item_id: id, person: OWNER, path, blob, at: this.d.now() });
    return { path, viewed: true };
  }
}
