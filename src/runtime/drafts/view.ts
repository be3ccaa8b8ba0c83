import type { DraftArea } from '../../contract/drafts/areas.js';
import type { DraftProblem } from '../../contract/drafts/answers.js';
import type { Choices } from '../../contract/drafts/choices.js';
import type { ResolvedChain } from '../../core/chain/model.js';
import type { ChainSources } from '../../core/chain/sources.js';
import type { Change } from '../../core/drafts/chain-changes.js';
import type { ConfigSet, ConfigTexts } from '../../core/config/validate-set.js';
import type { SettingsImpact, SettingsResolved } from '../../core/drafts/settings/result.js';
import type { YamlError } from '../../core/drafts/texts.js';
import type { FactSource } from './settings-facts.js';

/** A row of `changes`; a library row also names the chains it reaches, a settings row its file. */
export type DraftChange = Change & { reaches?: string[]; file?: string };

/**
 * What a publish reaches. A chain: items filed on it not yet ended, and repos whose default it is.
 * The library: chains any change reaches, and repos whose `steering:` names a changed entry.
 * Settings areas: their own (`SettingsImpact`).
 */
export type DraftImpact =
  { running: number; repos: string[] } | { chains: string[]; repos: string[] } | SettingsImpact;

/** The result object (spec drafts.md, "The result object"). */
export interface DraftResultView {
  model: Record<string, unknown>;
  resolved: ResolvedChain | SettingsResolved | null;
  problems: DraftProblem[];
  sources: ChainSources | null;
  changes: DraftChange[];
  impact: DraftImpact;
  warnings: { file: string; message: string }[];
  policy_values: { auto_escalate_delay_s: number; auto_review_attempts: number };
  choices: Choices;
  yaml_error: YamlError | null;
}

/** A draft as the editors read it (spec drafts.md, "Draft answer"). */
export interface DraftView {
  area: DraftArea;
  key: string;
  draft: boolean;
  files: Record<string, string | null>;
  base: Record<string, string | null>;
  published: Record<string, string | null>;
  updated_at: string | null;
  result: DraftResultView;
}

/** The published files of one request, and (for a settings area) the machine's facts. */
export interface Snapshot {
  texts: ConfigTexts;
  /** The published files validated as one set (kept between requests while they do not change). */
  set(): ConfigSet;
  facts: FactSource | null;
}
