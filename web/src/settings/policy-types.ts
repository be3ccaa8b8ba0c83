/*
 * The policy draft's `result.resolved` (docs/drafts.md, "The policy area", Resolved answer). The
 * contract types it as unknown, since each area answers its own shape; this is the policy one.
 */

export interface Sourced<T> {
  value: T;
  source: string | null;
}

export interface CapRow {
  default: Sourced<number | null>;
  maximum: Sourced<number | null>;
  below: {
    layer: string;
    chain: string;
    path: string;
    via: string | null;
    value: number;
    exceeds: boolean;
  }[];
}

export const LEVELS = ['work_item', 'nodes', 'steps', 'tasks'] as const;
export const CAPS = ['time_cap_minutes', 'total_time_cap_minutes', 'token_budget', 'budget_usd'] as const;
export type Level = (typeof LEVELS)[number];
export type Cap = (typeof CAPS)[number];

export interface LiveLoop {
  key: string;
  chain: string;
  node: string;
  attempts: Sourced<number | null>;
  wall_clock_s: Sourced<number | null>;
}

export interface PolicyResolved {
  limits: {
    caps: Record<Level, Record<Cap, CapRow>>;
    work_item_usd: Sourced<number | null> & { binding: { key: string; value: number } | null };
    daily_usd: Sourced<number | null>;
    max_attempts: { default: Sourced<number | null>; maximum: Sourced<number | null> };
    timeout_minutes: { default: Sourced<number | null>; maximum: Sourced<number | null> };
  };
  loops: {
    default: { attempts: Sourced<number | null>; wall_clock_s: Sourced<number | null> };
    entries: {
      key: string;
      attempts: Sourced<number | null>;
      wall_clock_s: Sourced<number | null>;
      live: boolean;
    }[];
    live: LiveLoop[];
  };
  escalation: {
    auto_escalate_stuck: Sourced<boolean>;
    auto_escalate_stuck_cap: Sourced<number | null>;
    auto_escalate_delay_s: Sourced<number | null>;
    auto_review_attempts: Sourced<number | null>;
  };
  retries: {
    rate_limit_retries: Sourced<number | null>;
    forge_cli_timeout_s: Sourced<number | null>;
    forge_poll_s: Sourced<number | null>;
  };
  housekeeping: {
    max_concurrent: Sourced<number | null>;
    archive_after_days: Sourced<number | null>;
    record_runs: Sourced<boolean>;
  };
  findings: { loop_severities: Sourced<string[]> };
  /** The instance default sandbox as written (docs/sandbox.md); null: none. */
  sandbox: Sourced<SandboxBlock | null>;
}

/** policy.yaml's `sandbox:` block, as the Policy screen reads and writes it. */
export interface SandboxBlock {
  kind?: 'bubblewrap' | 'podman' | 'docker' | 'none';
  image?: string;
  network?: { allow?: string[]; deny?: string[] } & Record<string, unknown>;
  unrestricted_network?: boolean;
  resources?: { cpu?: number | string; memory?: string; pids?: number };
  credentials?: unknown[];
}

/** The resolved answer when the draft's policy.yaml loads; null while it does not. */
export function policyResolved(resolved: unknown): PolicyResolved | null {
  if (typeof resolved !== 'object' || resolved === null || !('limits' in resolved) || !('loops' in resolved))
    return null;
  // The server's own shape for this area (a browser test reads every field shown here).
  return resolved as PolicyResolved;
}

/** Human words for the levels and caps, as the policy file's keys read. */
export const LEVEL_LABEL: Record<Level, string> = {
  work_item: 'Work item',
  nodes: 'Nodes',
  steps: 'Steps',
  tasks: 'Tasks',
};
export const CAP_LABEL: Record<Cap, string> = {
  time_cap_minutes: 'Time cap (min)',
  total_time_cap_minutes: 'Total time cap (min)',
  token_budget: 'Tokens',
  budget_usd: 'Budget ($)',
};
