import { z } from 'zod';
import type { SessionReadout } from '../../contract/harness/provider.js';
import { own } from '../json/own.js';

/*
 * The packaged price table (`defaults/prices.json`, USD per million tokens, refreshed by
 * `npm run prices`) and the cost of a session from it. Every provider is priced from tokens, so a
 * CLI that reports no cost (Codex, Gemini, OpenCode's routers) still has a dollar figure, marked
 * estimated; a reported cost always wins; a session with neither is unpriced, never $0.
 */

const Rate = z
  .object({
    input: z.number().nonnegative(),
    output: z.number().nonnegative(),
    cache_read: z.number().nonnegative(),
    cache_write: z.number().nonnegative(),
  })
  .strict();
export type Rate = z.infer<typeof Rate>;

export const PriceTable = z
  .object({
    date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    unit: z.string(),
    source: z.string(),
    providers: z.record(
      z.string(),
      z
        .object({
          models: z.record(z.string(), Rate),
          aliases: z.record(z.string(), z.string()).default({}),
        })
        .strict(),
    ),
  })
  .strict();
export type PriceTable = z.infer<typeof PriceTable>;

export type Tokens = SessionReadout['tokens'];

/** Parses the table's JSON text; throws on a malformed table (it is packaged, so that is a bug). */
export function parsePriceTable(text: string): PriceTable {
  return PriceTable.parse(JSON.parse(text));
}

/**
 * A model id as CLIs write it → the table's key: lower case, without provider prefixes
 * (`anthropic/`, `models/`, OpenCode's `provider/model`, a router's `openrouter/anthropic/`), a
 * context suffix (`[1m]`), a date (`-20250929`) or `-latest`.
 */
export function normalizeModel(model: string): string {
  return model
    .trim()
    .toLowerCase()
    .replace(/^(?:[^/]+\/)+/, '')
    .replace(/\[[^\]]*\]$/, '')
    .replace(/-\d{8}$/, '')
    .replace(/-latest$/, '');
}

/** The spellings a model is looked up under: as normalized, and with dots as dashes (Copilot's `claude-sonnet-4.5`). */
function spellings(model: string): string[] {
  const key = normalizeModel(model);
  const dashed = key.replaceAll('.', '-');
  return dashed === key ? [key] : [key, dashed];
}

/**
 * The rate of a model: in the launching provider's own table first (its aliases too: `opus`,
 * `pro`), then by full model id in every other table, because CLIs such as OpenCode, Kilo, Qwen
 * Code and Copilot run other vendors' models and a model's price does not depend on the CLI.
 */
export function findRate(
  table: PriceTable,
  provider: string,
  model: string,
): { model: string; rate: Rate } | null {
  // The model is what a CLI or an override named: `constructor` has no price, not a Function's.
  const keys = spellings(model);
  const p = own(table.providers, provider);
  if (p) {
    for (const key of keys) {
      const direct = own(p.models, key);
      if (direct) return { model: key, rate: direct };
      const alias = own(p.aliases, key);
      const viaAlias = alias === undefined ? undefined : own(p.models, alias);
      if (viaAlias && alias !== undefined) return { model: alias, rate: viaAlias };
    }
  }
  // Aliases are each CLI's shorthand (`pro`, `mini`): across tables only full ids count.
  for (const [id, other] of Object.entries(table.providers)) {
    if (id === provider) continue;
    for (const key of keys) {
      const direct = own(other.models, key);
      if (direct) return { model: key, rate: direct };
    }
  }
  return null;
}

const round = (usd: number): number => Math.round(usd * 1e9) / 1e9;

/** The estimated cost of these tokens; null only when the model (or provider) is not in the table. */
export function estimateCost(
  table: PriceTable,
  provider: string,
  model: string,
  tokens: Tokens,
): { usd: number; estimated: true } | null {
  const found = findRate(table, provider, model);
  if (!found) return null;
  const r = found.rate;
  const usd =
    (tokens.input * r.input +
      tokens.output * r.output +
      tokens.cache_read * r.cache_read +
      tokens.cache_write * r.cache_write) /
    1e6;
  return { usd: round(usd), estimated: true };
}

/** A session's cost and where it comes from: the CLI's own report, the table, or nowhere. */
export interface SessionCost {
  usd: number | null;
  source: 'reported' | 'estimated' | 'unknown';
  /** The model priced (the stream's, else the launch's); null when neither is known. */
  model: string | null;
  /** The price table's date when estimated. */
  prices_date: string | null;
}

/**
 * The reported cost wins; otherwise the table prices the tokens with the model the stream named
 * (else the model the launch asked for). Unknown (never free) when neither works.
 */
export function sessionCost(
  table: PriceTable,
  provider: string,
  readout: Pick<SessionReadout, 'cost_usd_reported' | 'model' | 'tokens'>,
  launchModel: string | null,
): SessionCost {
  const model = readout.model ?? launchModel;
  if (readout.cost_usd_reported !== null) {
    return { usd: readout.cost_usd_reported, source: 'reported', model, prices_date: null };
  }
  for (const m of [readout.model, launchModel]) {
    if (!m) continue;
    const est = estimateCost(table, provider, m, readout.tokens);
    if (est) return { usd: est.usd, source: 'estimated', model: m, prices_date: table.date };
  }
  return { usd: null, source: 'unknown', model, prices_date: null };
}

/** The table bound once: `estimateCost(provider, model, tokens)` as the runtime calls it. */
export function pricer(table: PriceTable): {
  date: string;
  estimateCost: (provider: string, model: string, tokens: Tokens) => { usd: number; estimated: true } | null;
  sessionCost: (
    provider: string,
    readout: Pick<SessionReadout, 'cost_usd_reported' | 'model' | 'tokens'>,
    launchModel: string | null,
  ) => SessionCost;
} {
  return {
    date: table.date,
    estimateCost: (provider, model, tokens) => estimateCost(table, provider, model, tokens),
    sessionCost: (provider, readout, launchModel) => sessionCost(table, provider, readout, launchModel),
  };
}
