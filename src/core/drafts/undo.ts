/*
 * The undo rules of a configuration draft (spec drafts.md, "Draft lifecycle"): every request that
 * changes a draft is one undo step, except that consecutive PUTs to one file less than 4 seconds
 * apart are one step (typing in an editor saves every few seconds); at most 80 steps are kept.
 */

export const UNDO_STEPS_KEPT = 80;
export const PUT_COALESCE_MS = 4_000;

/** What kind of request made a step: a PUT of one file's text, or an ops request. */
export type StepKind = 'put' | 'ops';

/** The last step as the rule needs it. */
export interface LastStep {
  kind: StepKind;
  file: string | null;
  /** When a request last landed in this step (ms): a coalesced PUT moves it on. */
  touchedAt: number;
}

/**
 * Whether a PUT of `file` at `now` joins the last step instead of pushing its own. Measured from
 * the previous PUT, so steady typing stays one step and a pause of 4 s or more starts another.
 */
export function joinsLastStep(last: LastStep | null, file: string, now: number): boolean {
  return last !== null && last.kind === 'put' && last.file === file && now - last.touchedAt < PUT_COALESCE_MS;
}
