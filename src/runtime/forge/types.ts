import type { ForgeMergeRequest } from '../../contract/merge-requests.js';
import type { ForgeKind, ForgeLocation } from '../../core/forge/locate.js';

/** A merge request as the forge answers it (GitHub calls it a pull request). */
export type MergeRequest = ForgeMergeRequest;

export type CheckState = 'pending' | 'passing' | 'failing';

/** One CI signal: a GitHub check run or commit status, a GitLab pipeline job, a Gitea status. */
export interface CiCheck {
  name: string;
  state: CheckState;
  url: string | null;
  /** What the forge says of it (a check's output summary, a status description). */
  summary: string | null;
  /**
   * The end of a failing check's log, when the forge gives one cheaply (a GitHub check run's output
   * text, a GitLab job's trace): at most 40 lines and 4000 characters; null otherwise.
   */
  log: string | null;
}

/** Whether the approvals the forge requires for merging are given. */
export interface ApprovalReport {
  state: 'approved' | 'pending' | 'changes_requested';
  /** Who approved (latest review of each person). */
  approved_by: string[];
  /** Who asked for changes, with their review's text. */
  changes_requested: { author: string; body: string }[];
  /** One line for a person: what is missing or given. */
  detail: string;
}

/** The CI of one commit: `none` when nothing reports on it. */
export interface CiReport {
  state: CheckState | 'none';
  checks: CiCheck[];
}

/** A comment or review on a merge request, read from every page. */
export interface ForgeComment {
  id: string;
  author: string;
  body: string;
  /** `review` with its verdict, or a plain comment (on a line when `path` is set). */
  kind: 'comment' | 'approved' | 'changes_requested' | 'review';
  path: string | null;
  line: number | null;
  created_at: string;
}

export type MergeMethod = 'merge' | 'squash' | 'rebase';

/**
 * One forge's HTTP API, as the forge tasks use it. Every list is read to its last page; every
 * request is bounded by the client's timeout. Failures are ForgeError with a kind the engine maps
 * to a stop (`auth` is an infra stop that names the token variable).
 */
export interface ForgeClient {
  readonly location: ForgeLocation;
  /** The open merge request from this branch, if there is one (so opening twice is harmless). */
  findOpen(head: string): Promise<MergeRequest | null>;
  openDraft(o: { head: string; base: string; title: string; body: string }): Promise<MergeRequest>;
  get(number: number): Promise<MergeRequest>;
  /** Sets the title and description (a draft stays a draft). */
  describe(mr: MergeRequest, o: { title: string; body: string }): Promise<MergeRequest>;
  markReady(mr: MergeRequest): Promise<MergeRequest>;
  merge(mr: MergeRequest, method: MergeMethod): Promise<MergeRequest>;
  reopen(mr: MergeRequest): Promise<MergeRequest>;
  setLabels(mr: MergeRequest, labels: string[]): Promise<string[]>;
  ci(sha: string): Promise<CiReport>;
  comments(mr: MergeRequest): Promise<ForgeComment[]>;
  /** The approvals the forge requires before merging (GitHub's review decision, GitLab's approvals). */
  approval(mr: MergeRequest): Promise<ApprovalReport>;
}

export type ForgeErrorKind = 'auth' | 'not_found' | 'conflict' | 'refused' | 'timeout' | 'unreachable';

export class ForgeError extends Error {
  constructor(
    readonly kind: ForgeErrorKind,
    readonly forge: ForgeKind,
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'ForgeError';
  }
}

/** The state of a set of checks: failing if any fails, pending if any is pending, else passing. */
export function overall(checks: readonly CiCheck[]): CiReport['state'] {
  if (checks.length === 0) return 'none';
  if (checks.some((c) => c.state === 'failing')) return 'failing';
  if (checks.some((c) => c.state === 'pending')) return 'pending';
  return 'passing';
}
