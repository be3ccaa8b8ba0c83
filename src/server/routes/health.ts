import type { HealthAnswer } from '../../contract/health.js';
import { getHealth } from '../../contract/routes/health.js';
import type { Services } from '../compose.js';
import { installedVersion } from '../../runtime/package-root.js';
import { routeFile } from '../route-file.js';

export async function healthAnswer(
  inst: Pick<
    Services,
    | 'config'
    | 'paths'
    | 'startedAt'
    | 'clock'
    | 'bind'
    | 'port'
    | 'version'
    | 'reattach'
    | 'configRolledBack'
    | 'search'
    | 'auth'
    | 'store'
    | 'engine'
    | 'connections'
  >,
): Promise<HealthAnswer> {
  const c = inst.config;
  return {
    status: c.degraded ? 'degraded' : 'ok',
    invalid_templates: c.invalidTemplates,
    invalid_policy: c.invalidPolicy,
    invalid_intake: c.invalidIntake,
    intake_off: c.intakeOff,
    run_dir: inst.paths.runDir,
    pid: process.pid,
    uptime_s: Math.round((inst.clock.now() - inst.startedAt) / 100) / 10,
    bind: inst.bind,
    port: inst.port,
    version: inst.version,
    installed: installedVersion(),
    reattach_summary: inst.reattach,
    config_rolled_back: inst.configRolledBack,
    index: await inst.search.health(),
    connections: inst.connections.counts,
    // access.yaml as it is now: a new session length shows at once.
    session_expiry_days: inst.auth.access.current().session_expiry_days,
    store: inst.store.kind,
    worker: inst.engine.workerName,
    workers: await inst.engine.workers(),
  };
}

export const healthRoutes = routeFile(import.meta.url, (r, inst: Parameters<typeof healthAnswer>[0]) => {
  r.serve(getHealth, async () => healthAnswer(inst));
});
