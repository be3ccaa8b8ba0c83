import { readsTokens } from '../../core/harness/capability-table.js';
import type { ProviderDefinition, SessionReadout } from '../../contract/harness/provider.js';
import { sessionCost, type PriceTable } from '../../core/harness/prices.js';
import type { SessionStatus } from '../../store/sessions.js';
import { LiveUsage } from './live-usage.js';

/** What a session has used so far, as the session row stores it. */
export interface Usage {
  cli_session_id: string | null;
  model: string | null;
  tokens_input: number;
  tokens_output: number;
  tokens_cache_read: number;
  tokens_cache_write: number;
  cost_usd: number | null;
  cost_source: 'reported' | 'estimated' | 'per_launch' | null;
}

/** Tokens a cap counts: everything sent (cached or not) plus everything generated. */
export const countedTokens = (u: {
  tokens_input: number;
  tokens_output: number;
  tokens_cache_read: number;
  tokens_cache_write: number;
}): number => u.tokens_input + u.tokens_output + u.tokens_cache_read + u.tokens_cache_write;

/** The price table, and the harness's `launch_usd` (what a launch counts when its CLI tells no usage). */
export interface Pricing {
  table: PriceTable;
  launch_usd: number | null;
}

export function usageOf(
  readout: SessionReadout,
  provider: ProviderDefinition,
  launchModel: string | null,
  pricing: Pricing,
): Usage {
  const priced = sessionCost(pricing.table, provider.id, readout, launchModel);
  // A CLI whose tokens Jig cannot read leaves them at zero: priced, they would read as a free run.
  const blind = !readsTokens(provider) && priced.source === 'estimated';
  const cost = blind ? { ...priced, usd: null, source: 'unknown' as const } : priced;
  // Nothing priced it: the harness's per-launch figure, else unpriced (null), never $0.
  const flat = cost.source === 'unknown' && pricing.launch_usd !== null;
  return {
    cli_session_id: readout.session_id,
    model: cost.model,
    tokens_input: readout.tokens.input,
    tokens_output: readout.tokens.output,
    tokens_cache_read: readout.tokens.cache_read,
    tokens_cache_write: readout.tokens.cache_write,
    cost_usd: flat ? pricing.launch_usd : cost.usd,
    cost_source: flat ? 'per_launch' : cost.source === 'unknown' ? null : cost.source,
  };
}

/**
 * Follows one agent session's log with its provider's reader. The same object serves a session this
 * server started and one it adopted after a restart (it reads the log from the start either way).
 */
export class AgentWatch {
  private readonly live: LiveUsage;

  constructor(
    readonly provider: ProviderDefinition,
    private readonly pricing: Pricing,
    private readonly launchModel: string | null,
    logPath: string,
    now: () => number,
  ) {
    this.live = new LiveUsage(logPath, provider, { now });
  }

  poll(): { readout: SessionReadout; usage: Usage } {
    const readout = this.live.poll();
    return { readout, usage: usageOf(readout, this.provider, this.launchModel, this.pricing) };
  }

  finish(): { readout: SessionReadout; usage: Usage } {
    const readout = this.live.finish();
    return { readout, usage: usageOf(readout, this.provider, this.launchModel, this.pricing) };
  }
}

/*
 * An error text that means the CLI cannot work at all here (no login, a key refused): a person must
 * fix the machine, and no fix cycle can help. Matched on the message the CLI printed, since none of
 * these CLIs gives the HTTP status in a field every version keeps.
 */
const AUTH =
  /\b401\b|\b403\b|unauthori[sz]ed|invalid[ _-]?api[ _-]?key|api key (?:is )?(?:invalid|missing|not valid)|not logged in|please run \/login|authentication(?:_error| failed| required)|permission_error|credentials|invalid or missing api key|no auth provided/i;

export function isAuthFailure(message: string | null): boolean {
  return message !== null && AUTH.test(message);
}

/**
 * How an agent session ended, from its result file's status (already read, or null), its stream
 * and its exit code (reference §2.9): a valid result file wins; else a rate limit; else a CLI that
 * could not work (infra); else failed — an agent that exits without its result file has failed,
 * whatever its exit code.
 */
export function agentStatus(
  fromFile: SessionStatus | null,
  readout: SessionReadout,
  exitCode: number | null,
): { status: SessionStatus; note: string | null } {
  if (fromFile !== null) return { status: fromFile, note: null };
  if (readout.rate_limit.hit) {
    return {
      status: 'rate_limited',
      note: `the provider rate-limited this session${readout.rate_limit.resets_at ? ` until ${readout.rate_limit.resets_at}` : ''}`,
    };
  }
  const message = readout.error_message;
  if (isAuthFailure(message)) {
    return {
      status: 'infra_error',
      note: `the CLI is not logged in or its API key was refused (${clip(message!)}); log it in or fix the key, then retry`,
    };
  }
  if (exitCode === 127) {
    return { status: 'infra_error', note: 'the CLI executable was not found (exit 127)' };
  }
  if (readout.is_error) {
    return { status: 'failed', note: `the CLI reported an error: ${clip(message ?? 'no message')}` };
  }
  return {
    status: 'failed',
    note:
      exitCode === null
        ? 'the agent ended without writing its result file'
        : `the agent exited ${exitCode} without writing its result file`,
  };
}

const clip = (s: string): string => (s.length > 300 ? `${s.slice(0, 300)}…` : s);

/** An agent launch as the session runner sees it. */
export interface AgentLaunch {
  harness: string;
  provider: ProviderDefinition;
  model: string | null;
  /** What the launch left out and why (buildArgv's notes: an option the CLI lacks, a dropped mode). */
  ignored?: string[];
}

/** The agent's part of `worker_session_started`: the notes only when there are some. */
export function startedFields(a: AgentLaunch): { harness: string; model: string | null; ignored?: string[] } {
  return { harness: a.harness, model: a.model, ...(a.ignored?.length ? { ignored: a.ignored } : {}) };
}
