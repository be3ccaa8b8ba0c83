import type { Command } from 'commander';
import { getHealth, reloadConfig } from '../../client/admin.js';
import { JigClient } from '../../client/http.js';
import { registerHarnesses } from './harnesses.js';
import { registerAddon } from './admin-addon.js';
import { registerDoctor } from './admin-doctor.js';
import { registerServerVerbs } from './admin-server.js';
import { registerServiceVerbs } from './admin-service.js';
import { registerUpdate } from './admin-update.js';
import { registerMcp } from './admin-mcp.js';
import { registerAdminLater } from './admin-later.js';
import { registerPermissionHook } from './admin-permission-hook.js';
import { describeFiles } from '../config-files.js';
import { EXIT_FAIL, EXIT_OK, printJson, runVerb } from '../output.js';
import { registerSchedules } from './schedules.js';
import { registerTemplates } from './templates.js';

export function registerAdmin(program: Command): void {
  const admin = program.command('admin').description("run this machine's Jig server");
  registerServerVerbs(admin);
  registerHarnesses(admin);
  registerMcp(admin);
  registerPermissionHook(admin);

  admin
    .command('health')
    .description('show the server status; exits 1 when degraded or not running')
    .option('--json', 'print the raw API answer')
    .action((opts: { json?: boolean }) =>
      runVerb(async () => {
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
      }),
    );

  admin
    .command('reload')
    .description('reread library, chains, policy and intake; exits 1 when a file is refused')
    .option('--json', 'print the raw API answer')
    .action((opts: { json?: boolean }) =>
      runVerb(async () => {
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
      }),
    );

  registerDoctor(admin);
  registerUpdate(admin);
  registerServiceVerbs(admin);
  registerSchedules(admin);
  registerTemplates(admin);
  registerAddon(admin);
  registerAdminLater(admin);
}
