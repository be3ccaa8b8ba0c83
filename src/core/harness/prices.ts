import { z } from 'zod';
import type { SessionReadout } from '../../contract/harness/provider.js';
import { own } from '../json/own.js';

/*
 * The packaged price table (`defaults/prices.json`, USD per million tokens) and the cost of a
 * session from it. Every provider is priced from tokens, so a CLI that reports no cost (Codex,
 * Gemini) still has a dollar figure, marked estimated; a reported cost always wins.
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
 * A model id as CLIs write it → the table's key: lower case, without a provider prefix
 * (`anthropic/`, `models/`), a context suffix (`[1m]`), a date (`-20250929`) or `-latest`.
 */
export function normalizeModel(model: string): string {
  return model
    .trim()
    .toLowerCase()
    .replace(/^(models|anthropic|openai|google)\//, '')
    .replace(/\[[^\]]*\]$/, '')
    .replace(/-\d{8}$/, '')
    .replace(/-latest$/, '');
}

export function findRate(
  table: PriceTable,
  provider: string,
  model: string,
): { model: string; rate: Rate } | null {
  // The model is what a CLI or an override named: `constructor` has no price, not a Function's.
  const p = own(table.providers, provider);
  if (!p) return null;
  const key = normalizeModel(model);
  const direct = own(p.models, key);
  if (direct) return { model: key, rate: direct };
  const alias = own(p.aliases, key);
  const viaAlias = alias === undefined ? undefined : own(p.models, alias);
  return viaAlias && alias !== undefined ? { model: alias, rate: viaAlias } : null;
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
