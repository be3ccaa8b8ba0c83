import type { TaggedFinding } from './identity.js';
import { repeatedTags, type FindingsRound } from './stuck.js';

export interface FailedTask {
  task: string;
  /** The workspace member it ran for. */
  member?: string;
  command: string;
  status: string;
  session: string;
  log: string;
}

export interface BriefInput {
  node: string;
  cycle: number;
  attempts: number;
  failed: readonly FailedTask[];
  /** The loop-severity findings of the last measurement. */
  findings: readonly TaggedFinding[];
  /** The judge's reasoning (`concerns`) for this cycle, when it ran. */
  concerns: string | null;
  history: readonly FindingsRound[];
}

/**
 * The instruction a repair (and the judge) reads at `$JIG_FIX_BRIEF`: what failed, what to fix with
 * stable tags (a finding seen in an earlier round is marked REPEAT), the judge's reasoning, and
 * every round so far, including findings that were fixed and came back.
 */
export function fixBrief(b: BriefInput): string {
  const repeat = repeatedTags(b.history);
  const out: string[] = [
    `# Fix brief: ${b.node}, cycle ${b.cycle} of ${b.attempts}`,
    '',
    'Repair what is listed below in the worktree and commit it. Jig measures the whole node again',
    'afterwards. When a finding you address is one of these, report it back with `same_as: <tag>`.',
    '',
    '## Failed tasks',
    '',
  ];
  if (b.failed.length === 0) out.push('None: every task ran, but reported the findings below.');
  for (const f of b.failed) {
    const where = f.member !== undefined ? ` in member ${f.member}` : '';
    out.push(
      `- \`${f.task}\`${where} ended ${f.status}: \`${f.command}\` (session ${f.session}, log ${f.log})`,
    );
  }
  out.push('', '## Findings to fix', '');
  for (const f of b.findings) {
    const file = f.file ? `${f.file}${f.line !== undefined ? `:${f.line}` : ''}` : '';
    const at = [f.member !== undefined ? `member ${f.member}` : '', file].filter(Boolean).join(', ');
    const where = at ? ` (${at})` : '';
    out.push(`- [${f.tag}]${repeat.has(f.tag) ? ' REPEAT' : ''} ${f.severity}${where}: ${f.message}`);
    const tail = (f as { log_tail?: unknown }).log_tail;
    if (Array.isArray(tail) && tail.length > 0) {
      out.push('  ```', ...tail.map((l) => `  ${String(l)}`), '  ```');
    }
  }
  out.push('', "## The judge's reasoning", '', b.concerns ?? 'The judge did not run this cycle.');
  out.push('', '## History', '');
  const ever = new Set<string>();
  for (const [i, r] of b.history.entries()) {
    const tags = r.findings.map((f) => f.tag);
    const before = new Set(b.history[i - 1]?.findings.map((f) => f.tag) ?? []);
    const returned = tags.filter((t) => ever.has(t) && !before.has(t));
    out.push(
      `- round ${r.round}${r.after_repair ? ' (after a repair)' : ''}: ${tags.length === 0 ? 'no loop findings' : tags.join(', ')}${returned.length > 0 ? `; fixed then returned: ${returned.join(', ')}` : ''}`,
    );
    for (const t of tags) ever.add(t);
  }
  return `${out.join('\n')}\n`;
}
