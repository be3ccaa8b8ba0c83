import type { ProviderDefinition } from '../../../contract/harness/provider.js';
import type { DraftProblem, DraftChangeRow } from '../../../contract/drafts/answers.js';
import type { ConfigSet } from '../../config/validate-set.js';

/*
 * What the settings areas' ops and results work on (spec drafts.md, "Harnesses ops" to "Intake
 * ops"). Ops change plain parsed documents; the runtime writes each changed document back over its
 * own text (comments kept), so an op never sees YAML nodes.
 */

export type SettingsAreaName = 'harnesses' | 'repos' | 'policy' | 'intake';

/**
 * Facts only the running server can answer, gathered before the pure code runs (so the pure code
 * stays testable with hand-written facts).
 */
export interface SettingsFacts {
  /** Harness id → whether its executable (or the provider's default command) resolves on PATH. */
  executableFound: Record<string, boolean>;
  /** The provider definitions that loaded, by provider id (their `capabilities` say what options they take). */
  providers: Record<string, ProviderDefinition>;
  /** What a repo path is on disk: a git repository (with or without a commit), a plain folder, or nothing. */
  repoPath(path: string): 'git' | 'git_no_commit' | 'not_git' | 'not_dir';
  /** Items not ended (any status except completed or abandoned) per repo path. */
  openItems: Record<string, number>;
}

/** The working documents of one ops request on a settings draft. */
export interface SettingsDocs {
  readonly area: SettingsAreaName;
  /**
   * The working copy of a config file (`harnesses.yaml`, `policy.yaml`, `repos.yaml`,
   * `intake.yaml`): the draft's text if the file is in the draft, else the published one, parsed to
   * plain data; null for a file that does not exist. Change it in place; `setDoc` replaces it.
   * A file that does not parse refuses the op (the caller throws before the op runs).
   */
  doc(file: string): unknown;
  setDoc(file: string, value: unknown): void;
  /** The whole config set with the draft laid over, validated, as it stood before this request's ops. */
  readonly set: ConfigSet;
  readonly facts: SettingsFacts;
}

/** One area's ops: a parse that checks name and fields, and the handlers. */
export interface SettingsOpSet<Op extends { op: string }> {
  /** Checks one raw op; throws `OpRefused` (from ../ops/context.ts) naming the field when malformed. */
  parse(raw: { op: string }): Op;
  /** Applies it to the documents; the answer (undefined: the op answers nothing). Throws `OpRefused`. */
  run(docs: SettingsDocs, op: Op): unknown;
}

/** What an area's result is computed from. */
export interface SettingsInput {
  /** The config set with the draft laid over, validated as a reload would (`set.files[f].problems`). */
  set: ConfigSet;
  /** Per file of the draft: what the published file parses to (null: absent or does not parse). */
  before: Record<string, unknown>;
  /** Per file of the draft: the draft's model (the newest state that parsed). */
  after: Record<string, unknown>;
  facts: SettingsFacts;
}

/** The area's own parts of the result object. */
export interface SettingsPart<Resolved, Impact> {
  /** The area's resolved answer; null when its file does not load (policy) or nothing can be said. */
  resolved: Resolved | null;
  /** Every problem of the draft's files (`set.files[f].problems`, with the area's keys added) and the area's own. */
  problems: DraftProblem[];
  changes: DraftChangeRow[];
  impact: Impact;
}
