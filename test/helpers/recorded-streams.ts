import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ProviderDefinition, SessionReadout } from '../../src/contract/harness/provider.js';
import { loadProviders } from '../../src/core/harness/load-providers.js';
import { createReader, emptyReadout, readStream } from '../../src/core/harness/readers/reader.js';

/*
 * What the recorded-streams tests (src/core/harness/readers/recorded-streams-*.test.ts) share: the
 * shipped providers, the folders of test/fixtures/harness-streams/, a short form of a readout and
 * the suite that reads every recorded file of a CLI with its provider's reader.
 */
const dir = fileURLToPath(new URL('../../defaults/harnesses/', import.meta.url));
export const { providers, problems } = loadProviders({
  packaged: readdirSync(dir).map((f) => ({
    file: `defaults/harnesses/${f}`,
    text: readFileSync(dir + f, 'utf8'),
  })),
});
export const def = (id: string): ProviderDefinition => {
  const d = providers[id];
  if (!d) throw new Error(`${id} did not load: ${JSON.stringify(problems)}`);
  return d;
};
export const STREAMS = fileURLToPath(new URL('../fixtures/harness-streams/', import.meta.url));
const NOW = Date.parse('2026-12-01T08:00:00Z');

/** One stream's readout in short: every field has a default (nothing read, not done). */
export interface Exp {
  sid?: string;
  model?: string | null;
  /** input (uncached), output, cache_read, cache_write */
  tok?: [number, number, number?, number?];
  /** The error message (a RegExp when only part of it is stable); sets is_error. */
  err?: string | RegExp;
  denials?: number;
  /** Tool calls the CLI made. */
  tools?: number;
  text?: string;
  done?: boolean;
  hit?: boolean;
  resets?: string;
}

const expected = (e: Exp): SessionReadout => ({
  session_id: e.sid ?? null,
  model: e.model ?? null,
  tokens: {
    input: e.tok?.[0] ?? 0,
    output: e.tok?.[1] ?? 0,
    cache_read: e.tok?.[2] ?? 0,
    cache_write: e.tok?.[3] ?? 0,
  },
  // None of these CLIs prints a dollar cost the reader takes (OpenCode's and Kilo's per-step
  // estimate is not read; droid's credits are not USD).
  cost_usd_reported: null,
  rate_limit: { hit: e.hit ?? e.resets !== undefined, resets_at: e.resets ?? null },
  is_error: e.err !== undefined,
  error_message:
    e.err === undefined ? null : typeof e.err === 'string' ? e.err : (expect.stringMatching(e.err) as string),
  permission_denials: e.denials ?? 0,
  tool_calls: e.tools ?? 0,
  final_text: e.text ?? null,
  done: e.done ?? false,
});

/** A stream that printed no JSON at all. */
export const EMPTY: Exp = { sid: undefined, model: null, done: false };
export const table = (defaults: Exp, rows: Record<string, Exp>): Record<string, Exp> =>
  Object.fromEntries(Object.entries(rows).map(([f, e]) => [f, { ...defaults, ...e }]));

/** One CLI's recorded files, as `streamSuite` checks them. */
export interface Recorded {
  /** Every .jsonl file that is the CLI's stdout, and what it reads as. */
  streams: Record<string, Exp>;
  /** .jsonl files that are not a CLI's stdout: nothing reads them as a session's stream. */
  notStdout?: string[];
  /** The .stderr files its `lines` rules read something from; every other one reads as nothing. */
  stderr?: Record<string, Exp>;
}

const read = (cli: string, text: string): SessionReadout => readStream(def(cli), text, { now: () => NOW });
const file = (cli: string, name: string): string => readFileSync(`${STREAMS}${cli}/${name}`, 'utf8');
const filesOf = (cli: string, ext: string): string[] =>
  readdirSync(STREAMS + cli)
    .filter((f) => f.endsWith(ext))
    .sort();

/**
 * Reads every recorded file of each CLI: each stdout stream whole and in 5-byte chunks, each .stderr
 * file alone, and each stream followed by its .stderr (the log Jig keeps has both; the stderr
 * figures win where it reads something).
 */
export function streamSuite(title: string, clis: Record<string, Recorded>): void {
  describe(title, () => {
    for (const [cli, { streams, notStdout = [], stderr = {} }] of Object.entries(clis)) {
      it(`${cli}: every recorded .jsonl and .stderr file is expected`, () => {
        expect(filesOf(cli, '.jsonl')).toEqual([...Object.keys(streams), ...notStdout].sort());
        const errs = filesOf(cli, '.stderr');
        for (const f of Object.keys(stderr)) expect(errs).toContain(f);
      });
      for (const [name, exp] of Object.entries(streams)) {
        it(`${cli}/${name}`, () => {
          const text = file(cli, name);
          expect(read(cli, text)).toEqual(expected(exp));
          // The same read as it arrives, in 5-byte chunks.
          const reader = createReader(def(cli), { now: () => NOW });
          for (let i = 0; i < text.length; i += 5) reader.chunk(text.slice(i, i + 5));
          reader.end();
          expect(reader.snapshot()).toEqual(expected(exp));
        });
      }
      for (const name of filesOf(cli, '.stderr')) {
        it(`${cli}/${name}`, () => {
          const own = stderr[name];
          expect(read(cli, file(cli, name))).toEqual(own ? expected(own) : emptyReadout());
          const stream = name.replace(/\.stderr$/, '.jsonl');
          const out = streams[stream];
          if (out === undefined) return;
          const log = `${file(cli, stream)}\n${file(cli, name)}`;
          expect(read(cli, log), `${stream} then ${name}`).toEqual(expected({ ...out, ...own }));
        });
      }
    }
  });
}
