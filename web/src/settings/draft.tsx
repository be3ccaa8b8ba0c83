import type { DraftProblem } from '../../../src/contract/drafts/answers.js';

/*
 * What the settings fields of a draft share: the problems at a key, shown under its field, and where
 * a value comes from. The draft itself and its bar are drafts/ (one hook and one bar serve Policy,
 * Auto-intake and Templates › Harnesses).
 */

export type Problem = DraftProblem;

/** The problems that sit at one key (`maxima.tasks.budget_usd`) or under it. */
export function problemsAt(problems: Problem[], key: string): Problem[] {
  return problems.filter((p) => {
    const at = p.field ? (p.path ? `${p.path}.${p.field}` : p.field) : p.path;
    return at === key || at.startsWith(`${key}.`);
  });
}

/** Problem messages under a field, announced as they appear. */
export function FieldProblems({ problems }: { problems: Problem[] }) {
  if (problems.length === 0) return null;
  return (
    <ul className="field-problems" role="alert">
      {problems.map((p, i) => (
        <li key={i}>{p.message}</li>
      ))}
    </ul>
  );
}

/** Where a value comes from: the file writes it, or the schema's default applies. */
export function Source({ source }: { source: string | null }) {
  if (source === null) return null;
  return <span className={`source source-${source}`}>{source === 'policy' ? 'set' : source}</span>;
}

/**
 * A number typed into a field: '' clears it (null), anything else must be a number. Returns
 * undefined for text that is not one, so the screen can say so instead of sending it.
 */
export function parseNumber(text: string): number | null | undefined {
  const t = text.trim();
  if (t === '') return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}
