import type { TaggedFinding } from './identity.js';

/** One measurement of a node, as the findings history keeps it. */
export interface FindingsRound {
  /** 1-based measurement number within the node's current entry. */
  round: number;
  /** Fix cycles counted when it was taken. */
  cycle: number;
  /** Whether a repair ran since the measurement before. */
  after_repair: boolean;
  /** Loop-severity findings only: what the loop tries to clear. */
  findings: { tag: string; severity: string; message: string; line?: number; task: string }[];
}

const sameSet = (a: string[], b: string[]): boolean => {
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((t) => y.has(t));
};

/**
 * Why the loop is stuck, or null (reference §2.7, check 6): the same set of loop-severity findings
 * came back after a repair, or one finding came back unchanged (same tag, severity, line and
 * message) three measurements running.
 */
export function stuckReason(rounds: readonly FindingsRound[]): string | null {
  const last = rounds.at(-1);
  const prev = rounds.at(-2);
  if (!last || last.findings.length === 0) return null;
  const tags = last.findings.map((f) => f.tag);
  if (
    prev &&
    last.after_repair &&
    sameSet(
      tags,
      prev.findings.map((f) => f.tag),
    )
  ) {
    return `the same findings came back after a repair (${[...new Set(tags)].join(', ')})`;
  }
  const third = rounds.at(-3);
  if (prev && third) {
    const key = (f: FindingsRound['findings'][number]) =>
      `${f.tag}|${f.severity}|${f.line ?? ''}|${f.message}`;
    const before = new Set(prev.findings.map(key));
    const before2 = new Set(third.findings.map(key));
    const same = last.findings.find((f) => before.has(key(f)) && before2.has(key(f)));
    if (same) return `finding ${same.tag} came back unchanged three cycles running`;
  }
  return null;
}

/** Tags seen in an earlier round of the history: shown as REPEAT in the fix brief. */
export function repeatedTags(rounds: readonly FindingsRound[]): Set<string> {
  const seen = new Set<string>();
  for (const r of rounds.slice(0, -1)) for (const f of r.findings) seen.add(f.tag);
  return seen;
}

/** The next round of the history: after a repair when fix cycles were counted since the last one. */
export function roundOf(
  history: readonly FindingsRound[],
  cycle: number,
  loopFindings: readonly TaggedFinding[],
): FindingsRound {
  const prev = history.at(-1);
  return {
    round: history.length + 1,
    cycle,
    after_repair: cycle > (prev?.cycle ?? 0),
    findings: loopFindings.map((f) => ({
      tag: f.tag,
      severity: f.severity,
      message: f.message,
      ...(f.line !== undefined ? { line: f.line } : {}),
      task: f.task,
    })),
  };
}
