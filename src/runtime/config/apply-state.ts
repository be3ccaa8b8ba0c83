import type { ApplyAnswer, ApplyFile } from '../../contract/apply.js';
import { hashesOnDisk, READ_WHEN_NEEDED_FILES, RELOADED_FILES } from './config-dir.js';
import type { ConfigState } from './config-state.js';

const order = (f: string): number =>
  f === 'library.yaml'
    ? 0
    : f.startsWith('chains/')
      ? 1
      : f === 'policy.yaml'
        ? 2
        : f === 'intake.yaml'
          ? 3
          : 4;

/**
 * What is saved on disk but not running yet: each file a reload runs whose text differs from the
 * running one (a chain added, edited or deleted counts), the files read when needed as the last
 * reload checked them, and whether the installed version differs from the running one.
 */
export function applyState(
  configDir: string,
  config: ConfigState,
  versions: { version: string; installed: string; supervised: boolean },
  access: { running_sha256: string | null; listen_changed: boolean } = {
    running_sha256: null,
    listen_changed: false,
  },
): ApplyAnswer {
  const disk = hashesOnDisk(configDir, [...RELOADED_FILES, ...READ_WHEN_NEEDED_FILES, 'access.yaml']);
  const running = config.runningHashes;
  const reloaded = new Set<string>([
    ...RELOADED_FILES,
    ...[...disk.keys(), ...running.keys()].filter((f) => f.startsWith('chains/')),
  ]);
  const files: ApplyFile[] = [...reloaded]
    .sort((a, b) => order(a) - order(b) || a.localeCompare(b))
    .map((file) => {
      const r = running.get(file) ?? null;
      const d = disk.get(file) ?? null;
      return { file, applies_by: 'reload', running_sha256: r, disk_sha256: d, changed: r !== d };
    });
  for (const file of READ_WHEN_NEEDED_FILES) {
    const r = config.checkedHashes.get(file) ?? null;
    const d = disk.get(file) ?? null;
    files.push({ file, applies_by: 'next_read', running_sha256: r, disk_sha256: d, changed: r !== d });
  }
  // Only the address and port wait for a restart: the rest of access.yaml is read live.
  files.push({
    file: 'access.yaml',
    applies_by: 'restart',
    running_sha256: access.running_sha256,
    disk_sha256: disk.get('access.yaml') ?? null,
    changed: access.listen_changed,
  });
  return {
    files,
    refused: config.diskRefusals(),
    reload_needed: files.some((f) => f.applies_by === 'reload' && f.changed),
    restart_needed: versions.installed !== versions.version || access.listen_changed,
    ...versions,
  };
}
