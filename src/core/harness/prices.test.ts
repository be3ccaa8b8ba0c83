import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { estimateCost, findRate, normalizeModel, parsePriceTable, pricer, sessionCost } from './prices.js';

const table = parsePriceTable(
  readFileSync(fileURLToPath(new URL('../../../defaults/prices.json', import.meta.url)), 'utf8'),
);
const T = (input: number, output: number, cache_read = 0, cache_write = 0) => ({
  input,
  output,
  cache_read,
  cache_write,
});

describe('price table', () => {
  it('has a date and covers every model the seeded profiles use', () => {
    expect(table.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const seeded: [string, string][] = [
      ['claude', 'opus'],
      ['claude', 'sonnet'],
      ['claude', 'haiku'],
      ['codex', 'gpt-5-codex'],
      ['codex', 'gpt-5-codex-mini'],
      ['gemini', 'gemini-2.5-pro'],
      ['gemini', 'gemini-2.5-flash'],
    ];
    for (const [p, m] of seeded) expect(findRate(table, p, m), `${p}/${m}`).not.toBeNull();
  });

  it('every alias points at a priced model', () => {
    for (const [p, entry] of Object.entries(table.providers)) {
      for (const [alias, target] of Object.entries(entry.aliases)) {
        expect(entry.models[target], `${p}: ${alias} -> ${target}`).toBeDefined();
      }
    }
  });

  it('normalizes ids as CLIs write them', () => {
    expect(normalizeModel('claude-opus-4-8[1m]')).toBe('claude-opus-4-8');
    expect(normalizeModel('claude-sonnet-4-5-20250929')).toBe('claude-sonnet-4-5');
    expect(normalizeModel('models/gemini-2.5-pro')).toBe('gemini-2.5-pro');
    expect(normalizeModel(' Anthropic/Claude-Haiku-4-5 ')).toBe('claude-haiku-4-5');
    expect(normalizeModel('openrouter/anthropic/claude-sonnet-4.5')).toBe('claude-sonnet-4.5');
    expect(normalizeModel('mock/mock-model')).toBe('mock-model');
  });

  it('prices a model by its id whichever CLI ran it; shorthand aliases stay with their own CLI', () => {
    const sonnet = {
      model: 'claude-sonnet-4-5',
      rate: table.providers['claude']!.models['claude-sonnet-4-5'],
    };
    expect(findRate(table, 'opencode', 'anthropic/claude-sonnet-4-5')).toEqual(sonnet);
    expect(findRate(table, 'kilo', 'anthropic/claude-sonnet-4-5-20250929')).toEqual(sonnet);
    // Copilot writes versions with dots.
    expect(findRate(table, 'copilot', 'claude-sonnet-4.5')).toEqual(sonnet);
    expect(findRate(table, 'copilot', 'gpt-5')?.model).toBe('gpt-5');
    expect(findRate(table, 'qwen', 'qwen3-coder-plus')?.rate.output).toBe(3.25);
    expect(findRate(table, 'qwen', 'coder-model')?.model).toBe('qwen3-coder-plus');
    expect(findRate(table, 'opencode', 'openrouter/qwen/qwen3-coder')?.model).toBe('qwen3-coder');
    // `sonnet` is Claude Code's shorthand: another CLI naming it is not priced as Claude's.
    expect(findRate(table, 'opencode', 'sonnet')).toBeNull();
    expect(findRate(table, 'opencode', 'mock/mock-model')).toBeNull();
    expect(findRate(table, 'qwen', 'constructor')).toBeNull();
  });
});

describe('estimateCost', () => {
  it('matches what Claude Code reported in the reference samples', () => {
    // claude-sample-stream-json: sonnet 4.5, 203 in / 40 out, reported 0.001209
    expect(estimateCost(table, 'claude', 'claude-sonnet-4-5', T(203, 40))?.usd).toBeCloseTo(0.001209, 9);
    // claude-sample-partial-messages: opus 4.8 [1m], 101 in / 20 out, reported 0.001005
    expect(estimateCost(table, 'claude', 'claude-opus-4-8[1m]', T(101, 20))?.usd).toBeCloseTo(0.001005, 9);
  });

  it('prices cache reads and writes separately, through aliases', () => {
    // sonnet: 3 in, 15 out, 0.3 cache read, 3.75 cache write per million
    expect(estimateCost(table, 'claude', 'sonnet', T(1_000_000, 1_000_000, 1_000_000, 1_000_000))).toEqual({
      usd: 22.05,
      estimated: true,
    });
    expect(estimateCost(table, 'codex', 'gpt-5-codex', T(183, 40, 20))).toEqual({
      usd: 0.00063125,
      estimated: true,
    });
    expect(estimateCost(table, 'gemini', 'gemini-2.5-flash', T(1_000_000, 0))?.usd).toBe(0.3);
  });

  it('is null only for an unknown model or provider', () => {
    expect(estimateCost(table, 'codex', 'mock-model', T(1, 1))).toBeNull();
    expect(estimateCost(table, 'amp', 'anything', T(1, 1))).toBeNull();
    expect(estimateCost(table, 'claude', 'haiku', T(0, 0))).toEqual({ usd: 0, estimated: true });
  });
});

describe('sessionCost', () => {
  it('a reported cost wins over the estimate', () => {
    expect(
      sessionCost(
        table,
        'claude',
        { cost_usd_reported: 0.5, model: 'claude-sonnet-4-5', tokens: T(10, 10) },
        null,
      ),
    ).toEqual({ usd: 0.5, source: 'reported', model: 'claude-sonnet-4-5', prices_date: null });
  });

  it('estimates from the launch model when the stream names none (Codex)', () => {
    expect(
      sessionCost(
        table,
        'codex',
        { cost_usd_reported: null, model: null, tokens: T(183, 40, 20) },
        'gpt-5-codex',
      ),
    ).toEqual({
      usd: 0.00063125,
      source: 'estimated',
      model: 'gpt-5-codex',
      prices_date: table.date,
    });
  });

  it('falls back to the launch model when the stream names an unpriced one; unknown when neither is priced', () => {
    expect(
      sessionCost(
        table,
        'gemini',
        { cost_usd_reported: null, model: 'auto', tokens: T(1000, 0) },
        'gemini-2.5-pro',
      ).source,
    ).toBe('estimated');
    expect(
      sessionCost(table, 'codex', { cost_usd_reported: null, model: null, tokens: T(5, 5) }, 'mock-model'),
    ).toEqual({
      usd: null,
      source: 'unknown',
      model: 'mock-model',
      prices_date: null,
    });
  });

  it('pricer binds the table', () => {
    const p = pricer(table);
    expect(p.date).toBe(table.date);
    expect(p.estimateCost('claude', 'haiku', T(1_000_000, 0))).toEqual({ usd: 1, estimated: true });
  });
});
