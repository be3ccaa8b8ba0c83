import type { ProviderDefinition } from '../../contract/harness/provider.js';

/** How a provider fares on what users compare CLIs by (GET /api/harnesses/providers, docs/harnesses.md). */
export interface CapabilityRow {
  /** A steer after a pause: the same CLI session goes on (`resume`), or a new one starts with the brief. */
  steer: 'resume' | 'restart';
  /** How a task's tool lists are held: the CLI's own flags, Jig's pre-tool hook, or not at all (refused). */
  tool_control: 'flags' | 'hook' | 'none';
  /** Where the dollar figure comes from: the CLI's own, tokens at the price table's rates, or none. */
  cost: 'reported' | 'estimated' | 'none';
  /** The launch can hand the CLI Jig's MCP server (its permission prompt tool). */
  mcp: boolean;
  /** Its hosts are declared, so a jailed task's egress proxy lets it reach its model API. */
  sandbox: boolean;
}

/**
 * Whether the provider's reader can see tokens at all (a rule or a hook that reads them). One that
 * cannot leaves them at zero, which the price table would turn into a free run.
 */
export function readsTokens(d: ProviderDefinition): boolean {
  if (d.usage_reported === 'none') return false;
  if (d.reader.hooks.length > 0) return true;
  const touches = (m: Partial<Record<string, unknown>> | undefined) =>
    Object.keys(m ?? {}).some((k) => k.startsWith('tokens.'));
  return [...d.reader.rules, ...d.reader.lines].some((r) => touches(r.set) || touches(r.add));
}

export function capabilityRow(d: ProviderDefinition): CapabilityRow {
  const caps = d.capabilities;
  const reportsCost = d.reader.rules.some((r) => r.set?.cost_usd_reported !== undefined);
  return {
    steer: caps.resume ? 'resume' : 'restart',
    tool_control: caps.allowed_tools ? 'flags' : caps.permission_hook ? 'hook' : 'none',
    cost: reportsCost ? 'reported' : readsTokens(d) ? 'estimated' : 'none',
    mcp: caps.permission_prompt !== undefined,
    sandbox: (d.network?.requires.length ?? 0) > 0,
  };
}
