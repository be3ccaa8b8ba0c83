import { existsSync, lstatSync, readlinkSync, realpathSync, renameSync, symlinkSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { HomeNotice } from './home-notice.js';
import { applyKeyMoves } from './key-moves.js';
import { LEGACY_KEEP_ORIGINAL, LEGACY_KEY_MOVES } from './legacy-key-moves.js';
import type { HomePaths } from './paths.js';

export type { HomeNotice } from './home-notice.js';

/** A home Jig must not start on until a person sorts it out. */
export class HomeRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HomeRefusedError';
  }
}

/**
 * 1.x kept its config in `templates/`. Renames it to `config/` and leaves `templates` as a link, so
 * tools that still use the old path keep working. Answers what it did.
 */
export function moveLegacyConfigDir(paths: HomePaths): HomeNotice[] {
  const notices: HomeNotice[] = [];
  if (paths.configDirSource === 'JIG_TEMPLATES_DIR') {
    const sibling = join(dirname(paths.configDir), 'config');
    if (basename(paths.configDir) === 'templates' && existsSync(paths.configDir) && existsSync(sibling)) {
      throw new HomeRefusedError(
        `JIG_TEMPLATES_DIR names ${paths.configDir}, but ${sibling} also exists. ` +
          `Merge the two folders into ${sibling}, then set JIG_CONFIG_DIR=${sibling} and unset JIG_TEMPLATES_DIR.`,
      );
    }
    notices.push({
      level: 'warn',
      key: 'templates-dir-env',
      standing: true,
      message: `JIG_TEMPLATES_DIR is the 1.x name; set JIG_CONFIG_DIR=${paths.configDir} instead`,
    });
    return notices;
  }
  if (paths.configDirSource !== 'home') return notices;
  const templates = join(paths.home, 'templates');
  let st;
  try {
    st = lstatSync(templates);
  } catch {
    return notices;
  }
  if (st.isSymbolicLink()) {
    const target = resolve(paths.home, readlinkSync(templates));
    const ours =
      existsSync(paths.configDir) &&
      existsSync(target) &&
      realpathSync(target) === realpathSync(paths.configDir);
    if (!ours) {
      notices.push({
        level: 'warn',
        key: 'templates-link',
        standing: true,
        message:
          `${templates} is a link to ${target}; it was not moved. ` +
          `To keep using that folder, start Jig with JIG_CONFIG_DIR=${target}.`,
      });
    }
    return notices;
  }
  if (!st.isDirectory()) return notices;
  if (existsSync(paths.configDir)) {
    throw new HomeRefusedError(
      `${templates} (1.x) and ${paths.configDir} both exist. Merge templates/ into config/, then remove templates/.`,
    );
  }
  renameSync(templates, paths.configDir);
  symlinkSync('config', templates);
  notices.push({
    level: 'info',
    key: 'templates-renamed',
    message: `renamed ${templates} to ${paths.configDir} and left templates as a link to it`,
  });
  return notices;
}

/**
 * Keys that moved between files in 2.0 (the table in `legacy-key-moves.ts`), then what 2.0 no
 * longer reads. Each move removes the old key, so running it again finds nothing to do and
 * nothing is logged twice.
 */
export function moveLegacyKeys(configDir: string): HomeNotice[] {
  const notices = applyKeyMoves(configDir, LEGACY_KEY_MOVES, { keepOriginal: LEGACY_KEEP_ORIGINAL });
  if (existsSync(join(configDir, 'steering'))) {
    notices.push({
      level: 'warn',
      key: 'steering-dir',
      standing: true,
      message: `${join(configDir, 'steering')} is no longer read: steering lives in library.yaml under steering:`,
    });
  }
  return notices;
}
