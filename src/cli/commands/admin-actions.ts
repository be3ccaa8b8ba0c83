import { getHealth, reloadConfig } from '../../client/admin.js';
import { JigClient } from '../../client/http.js';
import { describeFiles } from '../config-files.js';
import { EXIT_FAIL, EXIT_OK, printJson, runVerb } from '../output.js';

/** `jig admin health`. */
export function adminHealth(opts: { json?: boolean }): Promise<void> {
  return runVerb(async () => {
    const h = await getHealth(new JigClient());
    if (opts.json) printJson(h);
    else {
      const lines = [
        `${h.status} · jig ${h.version}${h.installed !== h.version ? ` (installed ${h.installed}; restart to run it)` : ''}`,
        `listening on ${h.bind}:${h.port} · pid ${h.pid} · up ${Math.round(h.uptime_s)}s`,
        `run dir ${h.run_dir}`,
      ];
      if (h.invalid_templates) lines.push(`library/chains: ${h.invalid_templates}`);
      if (h.invalid_policy) lines.push(`policy: ${h.invalid_policy}`);
      if (h.invalid_intake) lines.push(`intake: ${h.invalid_intake}`);
      if (h.intake_off) lines.push('schedules are off until intake.yaml loads');
      process.stdout.write(`${lines.join('\n')}\n`);
    }
    return h.status === 'ok' ? EXIT_OK : EXIT_FAIL;
  });
}

/** `jig admin reload`. */
export function adminReload(opts: { json?: boolean }): Promise<void> {
  return runVerb(async () => {
    const r = await reloadConfig(new JigClient());
    if (opts.json) printJson(r);
    else if (r.refused.length === 0)
      process.stdout.write(`reloaded ${r.loaded.length} file(s): ${describeFiles(r.loaded)}\n`);
    else {
      const out = [`refused ${r.refused.length} file(s); the running version of each is kept:`];
      for (const f of r.refused) {
        for (const p of f.problems) out.push(`${p.file}:${p.line ?? 1}:${p.col ?? 1}: ${p.message}`);
      }
      process.stdout.write(`${out.join('\n')}\n`);
    }
    if (!opts.json) {
      const warned = (r.warnings ?? []).flatMap((f) =>
        f.problems.map((p) => `${p.file}:${p.line ?? 1}:${p.col ?? 1}: warning: ${p.message}`),
      );
      if (warned.length > 0) process.stdout.write(`${warned.join('\n')}\n`);
    }
    return r.refused.length === 0 ? EXIT_OK : EXIT_FAIL;
  });
}
