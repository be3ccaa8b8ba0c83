import { arch, platform, release } from 'node:os';
import { scrubUrls } from '../../core/diagnostics/credentials.js';
import type { AccessFile } from '../../contract/config/access.js';
import type { DiagnosticsAnswer } from '../../contract/diagnostics.js';
import type { HealthAnswer } from '../../contract/health.js';
import type { Store } from '../../store/database.js';
import { itemCounts } from '../../store/item-counts.js';
import type { AddonsService } from '../addons/addons-service.js';
import type { HarnessCatalog } from '../harness/catalog.js';
import { listHarnessStates } from '../harness/harness-list.js';
import type { HomePaths } from '../home/paths.js';
import type { ReposService } from '../repos/repos-service.js';
import type { UpdateChecker } from '../update/checker.js';

/** What the diagnostics are read from: the server's own services, and access.yaml as it is now. */
export interface DiagnosticsSources {
  paths: HomePaths;
  store: Store;
  role: 'serve' | 'worker';
  supervised: boolean;
  access: () => AccessFile;
  updates: UpdateChecker;
  harnessCatalog: HarnessCatalog;
  repos: ReposService;
  addons: AddonsService;
}

/**
 * The diagnostics of `GET /api/admin/diagnostics`, beside the health answer they extend. Each field
 * is picked, never spread from a larger object, so a credential added to a source later cannot
 * reach a bug report by itself: access.yaml gives whether a password is set, never its hash.
 */
export async function readDiagnostics(
  s: DiagnosticsSources,
  health: HealthAnswer,
): Promise<DiagnosticsAnswer> {
  const access = s.access();
  const [harnesses, repos, addons, counts] = await Promise.all([
    listHarnessStates(s.paths.configDir, s.harnessCatalog),
    s.repos.list(),
    s.addons.list(),
    itemCounts(s.store.db),
  ]);
  return {
    version: health.version,
    installed: health.installed,
    node: process.version,
    platform: `${platform()} ${arch()}`,
    os_release: release(),
    home: s.paths.home,
    config_dir: s.paths.configDir,
    store: { kind: s.store.kind, location: s.store.location, schema_version: s.store.schemaVersion },
    server: {
      role: s.role,
      bind: health.bind,
      port: health.port,
      pid: health.pid,
      uptime_s: health.uptime_s,
      supervised: s.supervised,
      password_set: Boolean(access.password_hash),
      allowed_hosts: [...access.allowed_hosts],
    },
    health: {
      status: health.status,
      problems: [health.invalid_templates, health.invalid_policy, health.invalid_intake]
        .filter((p): p is string => p !== null)
        .map(scrubUrls),
      intake_off: health.intake_off,
    },
    update: s.updates.cached('stable'),
    harnesses: harnesses.harnesses.map((h) => ({
      id: h.id,
      provider: h.provider,
      enabled: h.enabled,
      installed: h.installed,
      version: h.version,
    })),
    counts: {
      items: counts.byStatus,
      archived: counts.archived,
      repos: repos.repos.length,
      workspaces: repos.workspaces.length,
      addons: addons.addons.length,
      workers: health.workers.filter((w) => w.alive).length,
    },
    index: health.index,
  };
}
