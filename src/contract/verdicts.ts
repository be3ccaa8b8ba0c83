/*
 * The answers an agent's result file may give the engine, and the nodes a session can belong to
 * outside the chain. Named once here: the engine decides on these literals, and the events that
 * record them use the same lists.
 */

/** What a fix loop's judge may answer; anything else (or nothing) reads as `continue`. */
export const judgeVerdicts = ['continue', 'stop_downgrade', 'stop_needs_human'] as const;
export type JudgeVerdict = (typeof judgeVerdicts)[number];

/** What a gate's reviewer may answer; anything else (or nothing) leaves the gate to a person. */
export const reviewVerdicts = ['approve', 'reject', 'fixed', 'undecided'] as const;
export type ReviewVerdict = (typeof reviewVerdicts)[number];

/** The `verdict` of a result file when it is one of `known`, else null. */
export function verdictOf<T extends string>(
  known: readonly T[],
  result: Record<string, unknown> | null | undefined,
): T | null {
  const v = result?.verdict;
  return known.find((k) => k === v) ?? null;
}

/** Sessions that run for the item, not for a node of its chain: the repo's setup, an escalation turn. */
export const SETUP_NODE = '<setup>';
export const ESCALATION_NODE = '<escalation>';
export type PseudoNode = typeof SETUP_NODE | typeof ESCALATION_NODE;
