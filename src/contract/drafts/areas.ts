import { IDENTIFIER_MAX, IDENTIFIER_PATTERN } from '../config/ids.js';

/*
 * The draft areas and their keys (spec drafts.md, "Areas and keys"): what a key may be, which
 * config files (relative to the config folder) a draft of it holds, and what a publish reloads.
 */

export const draftAreas = ['chains', 'library', 'harnesses', 'repos', 'policy', 'intake'] as const;
export type DraftArea = (typeof draftAreas)[number];

/** The settings areas: their problems are those the matching settings PUT would refuse. */
export const settingsAreas = [
  'harnesses',
  'repos',
  'policy',
  'intake',
] as const satisfies readonly DraftArea[];

/** What a publish of the area applies once its files are written. */
export type DraftApply =
  /** Reload the library and every chain. */
  | 'library_and_chains'
  /** Reload the policy, only when the draft holds `policy.yaml`. */
  | 'policy_if_held'
  /** Reload the policy, as `PUT /api/policy` does. */
  | 'policy'
  /** Reread `intake.yaml` and replace the poller. */
  | 'intake'
  /** Nothing: the file is read when needed. */
  | 'nothing';

export const draftApply: Record<DraftArea, DraftApply> = {
  chains: 'library_and_chains',
  library: 'library_and_chains',
  harnesses: 'policy_if_held',
  repos: 'nothing',
  policy: 'policy',
  intake: 'intake',
};

export function isDraftArea(area: string): area is DraftArea {
  return draftAreas.some((a) => a === area);
}

/** Whether the area takes this key: a chain id for `chains`, the area's own name for the others. */
export function keyAccepted(area: DraftArea, key: string): boolean {
  if (area === 'chains') return key.length <= IDENTIFIER_MAX && IDENTIFIER_PATTERN.test(key);
  return key === area;
}

/** The files a draft of `key` holds before any op joins more. */
export function draftFiles(area: DraftArea, key: string): string[] {
  switch (area) {
    case 'chains':
      return [`chains/${key}.yaml`];
    case 'library':
      return ['library.yaml'];
    case 'harnesses':
      return ['harnesses.yaml', 'policy.yaml'];
    case 'repos':
      return ['repos.yaml'];
    case 'policy':
      return ['policy.yaml'];
    case 'intake':
      return ['intake.yaml'];
  }
}
