import type { DraftProblem } from '../../../contract/drafts/answers.js';
import { formatProblem, type Problem } from '../../../contract/problems.js';
import type { ConfigSet } from '../../config/validate-set.js';

/** Every problem of the library and the chains: what refuses a chain at the next reload. */
export function chainProblems(set: ConfigSet): Problem[] {
  return [...set.library.problems, ...Object.values(set.chains).flatMap((c) => c.problems)];
}

const CHAIN_IN_MESSAGE = /^chain `([^`]+)`/;
const CHAIN_FILE = /^chains\/([^/]+)\.yaml$/;

/**
 * The chain problems a settings change brings (spec drafts.md, rule 2: `PUT /api/policy` refuses a
 * policy.yaml that "would break chains", so a policy or harnesses draft with no problem must not
 * either): problems of the library and the chains under the draft that the published set did not
 * have, each naming the chain it breaks.
 */
export function chainBreaks(published: ConfigSet, drafted: ConfigSet): DraftProblem[] {
  const had = new Set(chainProblems(published).map(formatProblem));
  return chainProblems(drafted)
    .filter((p) => !had.has(formatProblem(p)))
    .map((p) => ({
      ...p,
      chain: CHAIN_FILE.exec(p.file)?.[1] ?? CHAIN_IN_MESSAGE.exec(p.message)?.[1] ?? null,
    }));
}

/**
 * Whether an area already reports a break in its own words (a task on a `never` harness, a limit a
 * chain exceeds at the policy line): the same chain, the same place, the same field.
 */
function covered(b: DraftProblem, own: readonly DraftProblem[]): boolean {
  const field = (b.field ?? '').replace(/^policy\./, '');
  return own.some(
    (p) =>
      p.chain === b.chain &&
      (p.path === b.path || p.message.includes(`\`${b.path}\``)) &&
      (field === '' || p.field === b.field || p.field === field || p.message.includes(field)),
  );
}

/** The area's own problems, then each break it does not already report. */
export function withBreaks(own: DraftProblem[], breaks: readonly DraftProblem[]): DraftProblem[] {
  return [...own, ...breaks.filter((b) => !covered(b, own))];
}
