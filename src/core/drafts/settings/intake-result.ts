import { INTAKE_DEFAULTS } from '../../../contract/drafts/intake-ops.js';
import type { DraftProblem } from '../../../contract/drafts/answers.js';
import type { Problem } from '../../../contract/problems.js';
import type { ConfigSet } from '../../config/validate-set.js';
import { locate } from '../../config/tree.js';
import { parseCron } from '../../cron/index.js';
import { isObj, type Obj } from '../ops/context.js';
import type { SettingsInput, SettingsPart } from './docs.js';
import { dottedChanges } from './key-changes.js';

/*
 * The intake draft's part of the result object (spec drafts.md, "Intake ops"): the values the
 * poller would run with, each schedule with its index; every problem of intake.yaml with the
 * schedule's index, plus a schedule's repo, chain and cron checked even while the file does not
 * load (the checks across files only run on a file that does), each reported once; and one change
 * row per dotted key.
 */

const FILE = 'intake.yaml';

export interface IntakeSchedule {
  index: number;
  /** As written; null when the entry lacks it or it is not text (a problem says which). */
  cron: string | null;
  repo: string | null;
  chain: string | null;
  title: string | null;
  description: string;
}

export interface IntakeResolved {
  enabled: unknown;
  interval_s: unknown;
  priority_ceiling: unknown;
  repos: unknown;
  schedules: IntakeSchedule[];
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The schedules of a document that are mappings, with their index in the list. */
function scheduleEntries(doc: unknown): { index: number; entry: Obj }[] {
  const list = isObj(doc) && Array.isArray(doc.schedules) ? doc.schedules : [];
  const out: { index: number; entry: Obj }[] = [];
  list.forEach((entry: unknown, index) => {
    if (isObj(entry)) out.push({ index, entry });
  });
  return out;
}

/**
 * The values as written, a missing key at its default: a value the loader refuses (an interval
 * under 30) is shown as it stands, beside its problem.
 */
function resolve(doc: unknown): IntakeResolved {
  const d = isObj(doc) ? doc : {};
  const or = <K extends keyof typeof INTAKE_DEFAULTS>(k: K): unknown =>
    k in d ? d[k] : k === 'repos' ? [] : INTAKE_DEFAULTS[k];
  return {
    enabled: or('enabled'),
    interval_s: or('interval_s'),
    priority_ceiling: or('priority_ceiling'),
    repos: or('repos'),
    schedules: scheduleEntries(doc).map(({ index, entry }) => ({
      index,
      cron: text(entry.cron),
      repo: text(entry.repo),
      chain: text(entry.chain),
      title: text(entry.title),
      description: text(entry.description) ?? '',
    })),
  };
}

/** The schedule a problem sits in, from its `schedules.<i>` path (a schema problem may carry it in `field`). */
function scheduleIndex(p: Problem): number | null {
  const where = p.path === '' ? (p.field ?? '') : p.field ? `${p.path}.${p.field}` : p.path;
  const m = /^schedules\.(\d+)(?:\.|$)/.exec(where);
  return m ? Number(m[1]) : null;
}

/** A schedule's repo, chain and cron, each unless the file's own checks already reported that field. */
function scheduleProblems(set: ConfigSet, doc: unknown, reported: readonly Problem[]): DraftProblem[] {
  const tree = set.intake.tree;
  // Without a loaded repos.yaml there is nothing to hold repo paths against (its own problems say why).
  const repoPaths = set.repos.model?.repos.map((r) => r.path) ?? null;
  // An add-on chain (`<namespace>:<name>`) is answered by the add-on registry in the file's own checks.
  const chainExists = (c: string) => c.includes(':') || Object.hasOwn(set.chains, c);
  const out: DraftProblem[] = [];
  for (const { index, entry } of scheduleEntries(doc)) {
    const path = `schedules.${index}`;
    const add = (field: 'cron' | 'repo' | 'chain', message: string) => {
      if (
        reported.some(
          (p) => scheduleIndex(p) === index && (p.field === field || p.field === `${index}.${field}`),
        )
      )
        return;
      const where = tree ? locate(tree, ['schedules', index, field], 'value') : null;
      out.push({
        path,
        field,
        message: `schedule ${index}: ${message}`,
        file: FILE,
        line: where?.line ?? null,
        col: where?.col ?? null,
        index,
      });
    };
    const { repo, chain, cron } = entry;
    if (typeof repo === 'string' && repoPaths && !repoPaths.includes(repo))
      add('repo', `repo \`${repo}\` is not connected (not in repos.yaml)`);
    if (typeof chain === 'string' && !chainExists(chain))
      add('chain', `chain \`${chain}\` is not in the library`);
    if (typeof cron === 'string') {
      const parsed = parseCron(cron);
      if (!parsed.ok) add('cron', `cron \`${cron}\`: ${parsed.error.message}`);
    }
  }
  return out;
}

export function intakeResult(input: SettingsInput): SettingsPart<IntakeResolved, null> {
  // Without intake.yaml in the draft the published file is the draft's: nothing changed.
  const drafted = Object.hasOwn(input.after, FILE);
  const after = drafted ? (input.after[FILE] ?? null) : (input.set.files[FILE]?.model ?? null);
  const before = drafted ? (input.before[FILE] ?? null) : after;
  const base = input.set.files[FILE]?.problems ?? [];
  const problems: DraftProblem[] = base.map((p) => {
    const index = scheduleIndex(p);
    return index === null ? { ...p } : { ...p, index };
  });
  problems.push(...scheduleProblems(input.set, after, base));
  return {
    resolved: resolve(after),
    problems,
    changes: drafted
      ? dottedChanges(FILE, before, after, { deleted: after === null && before !== null })
      : [],
    impact: null,
  };
}
