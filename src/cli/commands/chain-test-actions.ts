import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { testChain } from '../../client/chain-test.js';
import { JigClient } from '../../client/http.js';
import type { ChainTestReport } from '../../contract/chain-test.js';
import { EXIT_FAIL, EXIT_OK, EXIT_USAGE, printJson, runVerb } from '../output.js';

/** The report in lines: the path, the sessions, the spend, each expectation. */
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
  return lines;
}

/** `jig chain test CHAIN --script FILE`. */
export function chainTest(
  chain: string,
  opts: { script: string; repo?: string; json?: boolean },
): Promise<void> {
  return runVerb(async () => {
    let script: unknown;
    try {
      script = parse(readFileSync(opts.script, 'utf8')) ?? {};
    } catch (err) {
      process.stderr.write(
        `jig: --script ${opts.script}: ${err instanceof Error ? err.message : String(err)}\n`,
      );
      return EXIT_USAGE;
    }
    if (typeof script !== 'object' || script === null || Array.isArray(script)) {
      process.stderr.write(`jig: --script ${opts.script}: not a mapping of tasks, gates and expect\n`);
      return EXIT_USAGE;
    }
    const r = await testChain(new JigClient(), chain, {
      ...(script as Record<string, unknown>),
      ...(opts.repo !== undefined ? { repo: opts.repo } : {}),
    });
    if (opts.json) printJson(r);
    else process.stdout.write(`${reportLines(r).join('\n')}\n`);
    return r.ok ? EXIT_OK : EXIT_FAIL;
  });
}
