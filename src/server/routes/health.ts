import type { HealthAnswer } from '../../contract/health.js';
import { getHealth } from '../../contract/routes/health.js';
import type { Instance } from '../../runtime/instance.js';
import { installedVersion } from '../../runtime/package-root.js';
import { routeFile } from '../route-file.js';

export async function healthAnswer(inst: Instance): Promise<HealthAnswer> {
  const c = inst.config;
  return {
    status: c.degraded ? 'degraded' : 'ok',
    invalid_templates: c.invalidTemplates,
    invalid_policy: c.invalidPolicy,
    invalid_intake: c.invalidIntake,
    intake_off: c.intakeOff,
    run_dir: inst.paths.runDir,
    pid: process.pid,
    uptime_s: Math.round((Date.now() - inst.startedAt) / 100) / 10,
    bind: inst.bind,
    port: inst.port,
    version: inst.version,
    installed: installedVersion(),
    reattach_summary: inst.reattach,
    index: await inst.search.health(),
    session_expiry_days: inst.access.session_expiry_days,
    store: inst.store.kind,
    worker: inst.engine.workerName,
    workers: await inst.engine.workers(),
  };
}

export const healthRoutes = routeFile(import.meta.url, (r, inst: Instance) => {
  r.serve(getHealth, async () => healthAnswer(inst));
});
