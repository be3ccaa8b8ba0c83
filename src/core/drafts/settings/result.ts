import type { SettingsAreaName, SettingsInput, SettingsPart } from './docs.js';
import { harnessesResult, type HarnessesResolved } from './harnesses-result.js';
import { intakeResult, type IntakeResolved } from './intake-result.js';
import { policyResult, type PolicyResolved } from './policy-result.js';
import { reposResult, type ReposResolved } from './repos-result.js';

export type SettingsResolved = HarnessesResolved | PolicyResolved | ReposResolved | IntakeResolved;

/** What a publish reaches: harness state changes (tasks, chains), or items per repo; null for the others. */
export type SettingsImpact = { tasks: number; chains: string[] } | { running: Record<string, number> } | null;

/** A settings draft's own parts of the result object, by area. */
export function settingsPart(
  area: SettingsAreaName,
  input: SettingsInput,
): SettingsPart<SettingsResolved, SettingsImpact> {
  switch (area) {
    case 'harnesses':
      return harnessesResult(input);
    case 'repos':
      return reposResult(input);
    case 'policy':
      return policyResult(input);
    case 'intake':
      return intakeResult(input);
  }
}
