import { testHarness } from '../../client/harnesses.js';
import { JigClient } from '../../client/http.js';
import { EXIT_FAIL, EXIT_OK, EXIT_USAGE, printJson, runVerb } from '../output.js';

/** `jig admin harnesses test ID`. */
export function adminHarnessTest(
  id: string,
  opts: { timeout?: string; keep?: boolean; json?: boolean },
): Promise<void> {
  return runVerb(async () => {
    let timeout_s: number | undefined;
    if (opts.timeout !== undefined) {
      timeout_s = Number(opts.timeout);
      if (!Number.isInteger(timeout_s) || timeout_s < 5 || timeout_s > 600) {
        process.stderr.write('jig: --timeout takes whole seconds from 5 to 600\n');
        return EXIT_USAGE;
      }
    }
    const r = await testHarness(new JigClient(), id, {
      ...(timeout_s === undefined ? {} : { timeout_s }),
      ...(opts.keep ? { keep: true } : {}),
    });
    if (opts.json) {
      printJson(r);
      return r.ok ? EXIT_OK : EXIT_FAIL;
    }
    const x = r.readout;
    const t = x.tokens;
    const ended = r.timed_out ? 'ended by Jig (time)' : `exit ${r.exit_code ?? r.signal ?? '?'}`;
    const lines = [
      `${r.harness} (${r.provider}): ${r.ok ? 'ok' : 'problems'} — ${ended} after ${(r.duration_ms / 1000).toFixed(1)} s`,
      `ran      ${r.argv.map(quoted).join(' ')}`,
      `mock     ${r.mock.api}: ${r.mock.model_calls} model call(s) of ${r.mock.requests} request(s)${r.mock.models.length ? `, model ${r.mock.models.join(', ')}` : ''}`,
      `tool     ${r.tool_ran ? 'the shell command ran' : 'the shell command did not run'}`,
      `stream   ${r.stream.json_lines} JSON line(s) of ${r.stream.lines}`,
      `session  ${x.session_id ?? '—'}   model ${x.model ?? '—'}`,
      `tokens   input ${t.input}, output ${t.output}, cache read ${t.cache_read}, cache write ${t.cache_write}`,
      `cost     ${costLine(r.cost)}`,
      `answer   ${x.final_text === null ? '—' : JSON.stringify(x.final_text.slice(0, 200))}`,
    ];
    if (x.is_error) lines.push(`error    ${x.error_message ?? 'no message'}`);
    if (x.tool_calls > 0) lines.push(`tools    ${x.tool_calls} call(s)`);
    if (x.permission_denials > 0) lines.push(`denied   ${x.permission_denials} tool call(s)`);
    if (x.rate_limit.hit)
      lines.push(`limit    rate limited${x.rate_limit.resets_at ? ` until ${x.rate_limit.resets_at}` : ''}`);
    for (const p of r.problems) lines.push(`problem  ${p}`);
    if (!r.ok && r.stream.stderr_tail !== '') lines.push('stderr:', r.stream.stderr_tail);
    if (r.folder) lines.push(`kept     ${r.folder}`);
    process.stdout.write(`${lines.join('\n')}\n`);
    return r.ok ? EXIT_OK : EXIT_FAIL;
  });
}

/** A word as a POSIX shell would need it written, so the printed command can be pasted. */
function quoted(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

function costLine(c: { usd: number | null; source: string; model: string | null }): string {
  const model = c.model ? ` (${c.model})` : '';
  if (c.usd === null) return `unpriced: no cost in the stream and no price for the model${model}`;
  const usd = `$${Number(c.usd.toPrecision(4))}`;
  return c.source === 'reported' ? `${usd} reported by the CLI` : `${usd} estimated from prices.json${model}`;
}
