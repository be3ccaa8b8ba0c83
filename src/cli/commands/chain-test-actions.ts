import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { testChain } from '../../client/chain-test.js';
import { JigClient } from '../../client/http.js';
import { defaultConfigDir } from '../../client/templates.js';
import type { ChainTestReport } from '../../contract/chain-test.js';
import { Recording } from '../../contract/recording.js';
import { EXIT_FAIL, EXIT_OK, EXIT_USAGE, printJson, runVerb } from '../output.js';

/** The report in lines: the path, the sessions, the spend, each expectation, each divergence. */
export function reportLines(r: ChainTestReport): string[] {
  const lines = [`${r.chain}: ${r.ok ? 'ok' : 'FAILED'} — ended: ${r.ended}`];
  for (const s of r.path) lines.push(`  ${(s.node ?? '').padEnd(18)} ${s.detail}`);
  lines.push('sessions:');
  for (const s of r.sessions)
    lines.push(
      `  ${`${s.task} #${s.attempt}`.padEnd(36)} ${s.status.padEnd(12)} $${s.cost_usd ?? '?'}  ${s.tokens} tokens${s.note ? `  (${s.note})` : ''}`,
    );
  lines.push(`spent: $${r.spent_usd}, ${r.spent_tokens} tokens`);
  for (const e of r.expectations) lines.push(`${e.ok ? 'ok  ' : 'FAIL'} ${e.expect} (was ${e.actual})`);
  // A replay's differences from its recording.
  for (const d of r.divergences) lines.push(`DIVERGES ${d.kind}: ${d.detail}`);
  return lines;
}

/** A script file as the API takes it, or the reason it is not one. */
function readScript(file: string): Record<string, unknown> | string {
  let script: unknown;
  try {
    script = parse(readFileSync(file, 'utf8')) ?? {};
  } catch (err) {
    return `${file}: ${err instanceof Error ? err.message : String(err)}`;
  }
  if (typeof script !== 'object' || script === null || Array.isArray(script))
    return `${file}: not a mapping of tasks, gates and expect`;
  return script as Record<string, unknown>;
}

/**
 * What `--replay` names: a recording file here (sent whole, its streams left out: the replay does
 * not read them), else a recording of the server's home by name.
 */
function replayOf(given: string): { replay: string } | { recording: Recording } | string {
  if (!existsSync(given)) return { replay: given };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(given, 'utf8'));
  } catch (err) {
    return `${given}: ${err instanceof Error ? err.message : String(err)}`;
  }
  const r = Recording.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0];
    return `${given}: not a recording (${i?.path.join('.') ?? ''}: ${i?.message ?? ''})`;
  }
  return { recording: { ...r.data, sessions: r.data.sessions.map((x) => ({ ...x, stream: '' })) } };
}

/** `jig chain test CHAIN --script FILE`. */
export function chainTest(
  chain: string,
  opts: { script?: string; replay?: string; repo?: string; draft?: boolean; json?: boolean },
): Promise<void> {
  return runVerb(async () => {
    if (opts.script === undefined && opts.replay === undefined) {
      process.stderr.write('jig: chain test needs --script FILE or --replay RECORDING\n');
      return EXIT_USAGE;
    }
    const script = opts.script === undefined ? {} : readScript(opts.script);
    if (typeof script === 'string') {
      process.stderr.write(`jig: --script ${script}\n`);
      return EXIT_USAGE;
    }
    const replay = opts.replay === undefined ? {} : replayOf(opts.replay);
    if (typeof replay === 'string') {
      process.stderr.write(`jig: --replay ${replay}\n`);
      return EXIT_USAGE;
    }
    const r = await testChain(new JigClient(), chain, {
      ...script,
      ...replay,
      ...(opts.repo !== undefined ? { repo: opts.repo } : {}),
      ...(opts.draft ? { draft: true } : {}),
    });
    if (opts.json) printJson(r);
    else process.stdout.write(`${reportLines(r).join('\n')}\n`);
    return r.ok ? EXIT_OK : EXIT_FAIL;
  });
}

/** Every chain's scripts: `chains/<id>.tests/*.yaml` (and .yml, .json), in name order. */
export function chainTestFiles(configDir: string): { chain: string; file: string }[] {
  const chains = join(configDir, 'chains');
  let names: string[] = [];
  try {
    names = readdirSync(chains);
  } catch {
    return [];
  }
  const out: { chain: string; file: string }[] = [];
  for (const dir of names.filter((n) => n.endsWith('.tests')).sort()) {
    let files: string[] = [];
    try {
      files = readdirSync(join(chains, dir));
    } catch {
      continue;
    }
    for (const f of files.filter((n) => /\.(ya?ml|json)$/.test(n)).sort())
      out.push({ chain: dir.slice(0, -'.tests'.length), file: join(chains, dir, f) });
  }
  return out;
}

/** `jig admin templates test`: every script beside its chain, one after another; exit 1 if one fails. */
export function templatesTest(opts: { dir?: string; repo?: string; json?: boolean }): Promise<void> {
  return runVerb(async () => {
    const files = chainTestFiles(opts.dir ?? defaultConfigDir());
    const results: { chain: string; file: string; ok: boolean; report?: unknown; problem?: string }[] = [];
    const client = new JigClient();
    for (const { chain, file } of files) {
      const script = readScript(file);
      if (typeof script === 'string') {
        results.push({ chain, file, ok: false, problem: script });
        continue;
      }
      const r = await testChain(client, chain, {
        ...script,
        ...(opts.repo !== undefined ? { repo: opts.repo } : {}),
      });
      results.push({ chain, file, ok: r.ok, report: r });
      if (!opts.json) {
        process.stdout.write(`${file}\n`);
        for (const l of reportLines(r)) process.stdout.write(`  ${l}\n`);
      }
    }
    const failed = results.filter((r) => !r.ok).length;
    if (opts.json) printJson({ tests: results, failed });
    else {
      for (const r of results) if (r.problem) process.stdout.write(`${r.file}\n  FAILED — ${r.problem}\n`);
      process.stdout.write(
        files.length === 0
          ? 'no chain tests: put scripts in chains/<id>.tests/*.yaml (docs/chain-tests.md)\n'
          : `${files.length - failed} of ${files.length} chain test(s) passed\n`,
      );
    }
    return failed === 0 ? EXIT_OK : EXIT_FAIL;
  });
}
