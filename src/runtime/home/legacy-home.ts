import {
  existsSync,
  lstatSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  symlinkSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { isMap, isNode, isSeq, parseDocument, type Document, YAMLMap, YAMLSeq } from 'yaml';
import { isDeepStrictEqual } from 'node:util';
import { writeFileAtomic } from './atomic-write.js';
import { parseCron } from '../../core/cron/parse.js';
import type { HomePaths } from './paths.js';

/** Something the first start did or found, logged once by the caller. */
export interface HomeNotice {
  level: 'info' | 'warn';
  key: string;
  message: string;
  /** A condition that stays true on every start (told once per home), not a move (told when made). */
  standing?: boolean;
}

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

function load(path: string): Document | null | 'unparsable' {
  if (!existsSync(path)) return null;
  const doc = parseDocument(readFileSync(path, 'utf8'));
  return doc.errors.length > 0 ? 'unparsable' : doc;
}

function save(path: string, doc: Document): void {
  writeFileAtomic(path, doc.toString(), 0o600);
}

/** The plain JS value of a YAML node (or of a value that is already plain). */
function plain(node: unknown): unknown {
  return isNode(node) ? (node.toJSON() as unknown) : node;
}

/** A doc whose top level can take keys: an empty file is an empty mapping. */
function asMapDoc(doc: Document): Document | null {
  if (doc.contents === null) doc.contents = new YAMLMap();
  return isMap(doc.contents) ? doc : null;
}

const paletteMap: Record<string, { surface: string; accent: string; colour_amount: number }> = {
  nocturne: { surface: 'cool', accent: 'indigo', colour_amount: 40 },
  rose: { surface: 'warm', accent: 'rose', colour_amount: 40 },
  forest: { surface: 'neutral', accent: 'green', colour_amount: 40 },
  amber: { surface: 'warm', accent: 'amber', colour_amount: 40 },
  slate: { surface: 'cool', accent: 'slate', colour_amount: 20 },
};

/**
 * Keys that moved between files in 2.0 (spec: Behavior changes, Config). Each move removes the old
 * key, so running it again finds nothing to do and nothing is logged twice.
 */
export function moveLegacyKeys(configDir: string): HomeNotice[] {
  const notices: HomeNotice[] = [];
  const policyPath = join(configDir, 'policy.yaml');
  const intakePath = join(configDir, 'intake.yaml');
  const themePath = join(configDir, 'theme.yaml');
  const unparsable = (file: string, what: string): void => {
    notices.push({
      level: 'warn',
      key: `unparsable-${file}`,
      message: `${file} does not parse; ${what} was not moved`,
    });
  };

  // policy.yaml `triggers:` -> intake.yaml `schedules:`.
  let policy = load(policyPath);
  let intake = load(intakePath);
  if (policy !== null && policy !== 'unparsable' && policy.has('triggers')) {
    if (intake === 'unparsable') unparsable('intake.yaml', 'policy.yaml triggers');
    else {
      const target = asMapDoc(intake ?? parseDocument(''));
      const triggers = policy.get('triggers', true);
      if (target && (triggers === null || triggers === undefined || isSeq(triggers))) {
        let schedules = target.get('schedules', true);
        if (!isSeq(schedules)) {
          schedules = new YAMLSeq();
          target.set('schedules', schedules);
        }
        const seq = schedules as YAMLSeq;
        seq.flow = false;
        const existing = seq.items.map(plain);
        let moved = 0;
        const kept: unknown[] = [];
        for (const item of isSeq(triggers) ? triggers.items : []) {
          const value = plain(item);
          // A cron that does not parse stays in policy.yaml, where it is skipped with a warning (or
          // refuses the file, if it cannot be read at all), rather than turning intake.yaml off.
          const cron = (value as { cron?: unknown } | null)?.cron;
          if (typeof cron !== 'string' || !parseCron(cron).ok) {
            kept.push(item);
            continue;
          }
          if (existing.some((e) => isDeepStrictEqual(e, value))) continue;
          seq.items.push(item);
          moved++;
        }
        save(intakePath, target);
        if (kept.length === 0) policy.delete('triggers');
        else (triggers as YAMLSeq).items = kept;
        save(policyPath, policy);
        intake = target;
        notices.push({
          level: 'info',
          key: 'policy-triggers',
          message:
            `moved ${moved} schedule(s) from policy.yaml triggers: to intake.yaml schedules:` +
            (kept.length > 0 ? `; left ${kept.length} whose cron does not parse in policy.yaml` : ''),
        });
      }
    }
  } else if (policy === 'unparsable') unparsable('policy.yaml', 'triggers');

  // intake.yaml `max_concurrent` -> policy.yaml, unless policy already sets one.
  policy = load(policyPath);
  if (intake !== null && intake !== 'unparsable' && intake.has('max_concurrent')) {
    if (policy === 'unparsable') unparsable('policy.yaml', 'intake.yaml max_concurrent');
    else {
      const target = asMapDoc(policy ?? parseDocument(''));
      if (target) {
        const value: unknown = intake.get('max_concurrent');
        const kept = target.has('max_concurrent');
        if (!kept) {
          target.set('max_concurrent', value);
          save(policyPath, target);
        }
        intake.delete('max_concurrent');
        save(intakePath, intake);
        notices.push({
          level: 'info',
          key: 'intake-max-concurrent',
          message: kept
            ? 'dropped max_concurrent from intake.yaml: policy.yaml already sets one'
            : `moved max_concurrent: ${String(value)} from intake.yaml to policy.yaml`,
        });
      }
    }
  }

  // theme.yaml `palette` -> surface/accent/colour_amount; board.group_by template -> chain.
  const theme = load(themePath);
  if (theme === 'unparsable') unparsable('theme.yaml', 'palette');
  else if (theme !== null) {
    let changed = false;
    const original = readFileSync(themePath, 'utf8');
    if (theme.has('palette')) {
      const palette = String(theme.get('palette'));
      const mapped = paletteMap[palette] ?? paletteMap.nocturne!;
      for (const [k, v] of Object.entries(mapped)) if (!theme.has(k)) theme.set(k, v);
      theme.delete('palette');
      changed = true;
      notices.push({
        level: 'info',
        key: 'theme-palette',
        message: `theme.yaml palette: ${palette} became surface: ${mapped.surface}, accent: ${mapped.accent}, colour_amount: ${mapped.colour_amount}; the original is kept as theme.yaml.pre-2.0`,
      });
    }
    if (theme.getIn(['board', 'group_by']) === 'template') {
      theme.setIn(['board', 'group_by'], 'chain');
      changed = true;
      notices.push({
        level: 'info',
        key: 'theme-group-by',
        message: 'theme.yaml board.group_by: template became chain',
      });
    }
    if (changed) {
      const backup = `${themePath}.pre-2.0`;
      if (!existsSync(backup)) writeFileAtomic(backup, original, 0o600);
      save(themePath, theme);
    }
  }

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
