import type { IntakeFile } from '../../contract/config/intake.js';
import type { PolicyFile } from '../../contract/config/policy.js';
import type { Problem } from '../../contract/problems.js';
import type { FileLoad } from '../../core/config/load-file.js';
import { loadIntake, loadPolicy } from '../../core/config/load-settings.js';
import type { ConfigSet } from '../../core/config/validate-set.js';

/*
 * Which of the problems `validateConfigSet` finds refuse a file on a running server, and which are
 * only reported. The rule: a file is refused for what would make it run wrongly; a problem the
 * spec says is handled when it matters (a schedule naming an unknown chain or an unconnected repo
 * is skipped when it fires) is reported as a warning and the file still loads.
 */

export interface Verdict<T> {
  /** The file's own load: its model (null when it does not load) and tree. */
  load: FileLoad<T>;
  /** Problems that refuse the file. */
  problems: Problem[];
  /** Reported, not refused: the file's own warnings and cross-file problems handled at run time. */
  warnings: Problem[];
}

const key = (p: Problem): string => `${p.file}:${p.line}:${p.col}:${p.path}:${p.field}:${p.message}`;

/** The problems the set found beyond the file's own load (its cross-file checks). */
function crossFile(all: readonly Problem[], own: readonly Problem[]): Problem[] {
  const mine = new Set(own.map(key));
  return all.filter((p) => !mine.has(key(p)));
}

/**
 * policy.yaml: its own load and rules, plus the cross-file checks (a `loops:` key naming no fix
 * loop, a harness name not in harnesses.yaml) refuse it. A legacy `triggers:` entry naming an
 * unknown chain is skipped when it fires, so it is a warning.
 */
export function policyVerdict(
  set: ConfigSet,
  text: string | null,
  rules: (load: FileLoad<PolicyFile>) => Problem[],
): Verdict<PolicyFile> {
  const load = loadPolicy(text);
  const extra = crossFile(set.policy.problems, load.problems);
  const skipped = (p: Problem): boolean => p.path.startsWith('triggers.') && p.field === 'chain';
  return {
    load,
    problems: [...load.problems, ...extra.filter((p) => !skipped(p)), ...(load.model ? rules(load) : [])],
    warnings: [...load.warnings, ...extra.filter(skipped)],
  };
}

/**
 * intake.yaml: its own load and rules refuse it. A schedule whose chain is unknown or whose repo
 * is not connected is skipped when it fires (spec: When a schedule is skipped), so the set's
 * cross-file problems are warnings.
 */
export function intakeVerdict(
  set: ConfigSet,
  text: string | null,
  rules: (load: FileLoad<IntakeFile>) => Problem[],
): Verdict<IntakeFile> {
  const load = loadIntake(text);
  return {
    load,
    problems: [...load.problems, ...(load.model ? rules(load) : [])],
    warnings: [...load.warnings, ...crossFile(set.intake.problems, load.problems)],
  };
}
