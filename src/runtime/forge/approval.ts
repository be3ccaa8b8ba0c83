import type { ApprovalReport } from './types.js';

/** A review that changes where its author stands; a plain comment review changes nothing. */
export interface Verdict {
  author: string;
  verdict: 'approved' | 'changes_requested' | 'dismissed';
  body: string;
}

/**
 * Where each person stands by their latest verdict, reviews given oldest first: an approval after
 * a request for changes replaces it, and a dismissed review no longer counts either way.
 */
export function standing(
  reviews: readonly Verdict[],
): Pick<ApprovalReport, 'approved_by' | 'changes_requested'> {
  const latest = new Map<string, Verdict>();
  for (const r of reviews) {
    // A deleted account has no name to show or to count.
    if (r.author === '') continue;
    latest.delete(r.author);
    latest.set(r.author, r);
  }
  const now = [...latest.values()];
  return {
    approved_by: now.filter((r) => r.verdict === 'approved').map((r) => r.author),
    changes_requested: now
      .filter((r) => r.verdict === 'changes_requested')
      .map((r) => ({ author: r.author, body: r.body })),
  };
}

export const names = (people: readonly string[]): string => people.join(', ');

export function changesDetail(changes: ApprovalReport['changes_requested']): string {
  return changes.length === 0
    ? 'changes requested'
    : `changes requested by ${names(changes.map((c) => c.author))}`;
}

/** A lead, then who approved when anyone did: "review required (approved so far by alice)". */
export function withApprovers(lead: string, approvedBy: readonly string[], by = 'approved by '): string {
  return approvedBy.length > 0 ? `${lead} (${by}${names(approvedBy)})` : lead;
}

/** "1 of 2 required approvals (alice)", or that none is required. */
export function countDetail(given: number, required: number, approvedBy: readonly string[]): string {
  if (required <= 0) return withApprovers('no approval required', approvedBy);
  return withApprovers(`${Math.min(given, required)} of ${required} required approvals`, approvedBy, '');
}
