import type { DraftProblem } from '../../../../src/contract/drafts/answers.js';

/*
 * The harnesses draft's resolved answer (docs/drafts.md "Resolved answer"). The contract types it
 * as unknown (each area has its own), so it is checked here before the screen reads it.
 */

export type Access = 'available' | 'override' | 'never';
export const ACCESS: readonly Access[] = ['available', 'override', 'never'];

export interface HarnessRow {
  id: string;
  state: Access;
  executable_found: boolean;
  provider: string;
  enabled: boolean;
  executable: string | null;
  defaults: Record<string, string | null>;
  tasks: { chain: string; path: string; profile: string | null; fallback: boolean }[];
}

export interface ProfileRow {
  providers: Record<string, { model: string; effort: string | null }>;
  effort: string | null;
  tasks: { chain: string; path: string; fallback: boolean }[];
  used_by_fallback: string[];
}

export interface HarnessesResolved {
  harnesses: HarnessRow[];
  allowed_tools: string[] | null;
  escalation: { harness: string | null; grants: string[] | null };
  escalation_effective: { harness: string; set: boolean };
  profiles: Record<string, ProfileRow>;
}

export function isHarnessesResolved(v: unknown): v is HarnessesResolved {
  return (
    typeof v === 'object' &&
    v !== null &&
    'harnesses' in v &&
    Array.isArray(v.harnesses) &&
    'profiles' in v &&
    typeof v.profiles === 'object' &&
    'escalation' in v
  );
}

/** The problems placed at a path (and field, when given) of the draft. */
export function problemsAt(ps: readonly DraftProblem[], path: string, field?: string): DraftProblem[] {
  return ps.filter(
    (p) => (p.path === path || p.path.startsWith(`${path}.`)) && (!field || p.field === field),
  );
}
