#!/usr/bin/env node
// Refreshes defaults/prices.json from @pydantic/genai-prices (a maintained, MIT-licensed price
// dataset on npm): `npm run prices`, then review the diff and commit it with its new date.
//
// The table keeps its own shape (a table per Jig provider, each with the models its CLI names and
// its shorthand aliases) and its own list of models: this script only refreshes their rates. A
// model the dataset does not carry keeps its rate, and the script names it, so nothing drops out
// of the table silently. Tiered prices (a higher rate past 200k tokens of context) take the base
// rate: a CLI's stream reports per-session totals, not per-request context sizes.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { calcPrice } from '@pydantic/genai-prices';
import { format, resolveConfig } from 'prettier';

const file = fileURLToPath(new URL('../defaults/prices.json', import.meta.url));
// Its package.json is not exported: read it beside the resolved entry (dist/index.js).
const entry = fileURLToPath(import.meta.resolve('@pydantic/genai-prices'));
const dataset = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8'));

/** Where each table's models are found in the dataset: its vendor, and a prefix for routers. */
const SOURCES = {
  claude: { provider: 'anthropic', prefix: '' },
  codex: { provider: 'openai', prefix: '' },
  gemini: { provider: 'google', prefix: '' },
  // Qwen's own API (DashScope) is not in the dataset; OpenRouter lists Alibaba's prices for it.
  qwen: { provider: 'openrouter', prefix: 'qwen/' },
};

const base = (v) => (typeof v === 'number' ? v : v && typeof v === 'object' ? v.base : undefined);

function rateOf(table, model) {
  const src = SOURCES[table];
  if (!src) return null;
  const found = calcPrice({ input_tokens: 1 }, `${src.prefix}${model}`, { providerId: src.provider });
  const p = found?.model_price;
  const input = base(p?.input_mtok);
  const output = base(p?.output_mtok);
  if (input === undefined || output === undefined) return null;
  return {
    input,
    output,
    // A model with no cache price bills cached tokens as input.
    cache_read: base(p.cache_read_mtok) ?? input,
    cache_write: base(p.cache_write_mtok) ?? input,
  };
}

const today = process.argv.includes('--date')
  ? process.argv[process.argv.indexOf('--date') + 1]
  : new Date().toISOString().slice(0, 10);
if (!/^\d{4}-\d{2}-\d{2}$/.test(today ?? '')) throw new Error('--date takes YYYY-MM-DD');

const table = JSON.parse(readFileSync(file, 'utf8'));
const kept = [];
let changed = 0;
for (const [id, entry] of Object.entries(table.providers)) {
  for (const [model, old] of Object.entries(entry.models)) {
    const fresh = rateOf(id, model);
    if (!fresh) {
      kept.push(`${id}/${model}`);
      continue;
    }
    if (JSON.stringify(fresh) !== JSON.stringify(old)) {
      changed++;
      console.log(`${id}/${model}: ${JSON.stringify(old)} -> ${JSON.stringify(fresh)}`);
    }
    entry.models[model] = fresh;
  }
}
table.date = today;
table.source = `@pydantic/genai-prices ${dataset.version} (the vendors' published API prices; base rates, before any long-context tier), refreshed by scripts/update-prices.mjs on the date above; models it does not carry keep their earlier rate. cache_write is the 5-minute cache-write price; cache_read is the cached-input price.`;
const tmp = `${file}.tmp`;
writeFileSync(tmp, await format(JSON.stringify(table), { ...(await resolveConfig(file)), filepath: file }));
renameSync(tmp, file);
console.log(`${changed} rate(s) changed; dated ${today}`);
if (kept.length) console.log(`not in the dataset, rate kept: ${kept.join(', ')}`);
