import { createTwoFilesPatch } from 'diff';
import { compare } from 'semver';
import { parse as parseYaml } from 'yaml';
import { CAP_KEYS } from '../../contract/config/scope-policy.js';
import type { AddonManifest } from '../../contract/addons.js';
import type { AddonContentItem, AddonReviewBody } from '../../contract/addon-review.js';
import type { AddonFiles } from './types.js';

/*
 * The review an operator reads before an add-on is installed or updated (ADR 0020): its **Reach**
 * — what it can make Jig do on the instance: gates a person must pass, merge-request steps,
 * harnesses, models, limits — and its **Content**: every prompt, steering text and skill in full,
 * or for an update, what changed as a diff. Reach lines are plain, position-free text, so an
 * update's reach compares line by line: an update that adds none is one auto-update may apply.
 */

const LIMIT_KEYS = new Set<string>([...CAP_KEYS, 'max_attempts', 'timeout_minutes']);

type Plain = Record<string, unknown>;
const isMap = (v: unknown): v is Plain => v !== null && typeof v === 'object' && !Array.isArray(v);

function yamlOf(text: string | null): unknown {
  if (text === null) return null;
  try {
    return parseYaml(text);
  } catch {
    return null;
  }
}

/** Reach and content of one version, from its files. */
export function reachAndContent(
  namespace: string,
  manifest: AddonManifest,
  files: AddonFiles,
): { reach: string[]; content: Omit<AddonContentItem, 'change' | 'diff'>[] } {
  const reach = new Set<string>();
  const content: Omit<AddonContentItem, 'change' | 'diff'>[] = [];
  for (const h of manifest.requires.harnesses ?? []) reach.add(`harness ${h}`);
  for (const p of manifest.requires.profiles ?? []) reach.add(`profile ${p} (the instance's)`);

  const walk = (v: unknown, where: string, file: string): void => {
    if (Array.isArray(v)) {
      for (const x of v) walk(x, where, file);
      return;
    }
    if (!isMap(v)) return;
    const id = typeof v.id === 'string' ? v.id : null;
    const here = id === null ? where : `${where} › ${id}`;
    if (v.kind === 'gate') reach.add(`gate ${here}`);
    if (typeof v.target === 'string' && v.target.startsWith('mr.'))
      reach.add(`merge request ${v.target} in ${here}`);
    if (typeof v.harness === 'string') reach.add(`harness ${v.harness}`);
    if (typeof v.escalation_harness === 'string' && v.escalation_harness !== 'item')
      reach.add(`harness ${v.escalation_harness}`);
    if (typeof v.model === 'string') reach.add(`model ${v.model} in ${here}`);
    if (typeof v.prompt === 'string') content.push({ kind: 'prompt', file, where: here, text: v.prompt });
    for (const [k, x] of Object.entries(v)) {
      if (LIMIT_KEYS.has(k) && (typeof x === 'number' || typeof x === 'string'))
        reach.add(`limit ${k} ${x} in ${here}`);
      if (k !== 'prompt') walk(x, here, file);
    }
  };

  const lib = yamlOf(files.library);
  if (isMap(lib)) {
    for (const section of ['nodes', 'steps', 'tasks'] as const) {
      const sec = lib[section];
      if (!isMap(sec)) continue;
      for (const [name, comp] of Object.entries(sec))
        walk(comp, `library ${section.slice(0, -1)} ${namespace}:${name}`, 'library.yaml');
    }
    const steering = lib.steering;
    if (isMap(steering))
      for (const [name, s] of Object.entries(steering))
        if (isMap(s) && typeof s.instructions === 'string')
          content.push({
            kind: 'steering',
            file: 'library.yaml',
            where: `steering ${namespace}:${name}`,
            text: s.instructions,
          });
  }
  for (const [id, text] of Object.entries(files.chains).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const chain = yamlOf(text);
    walk(chain, `chain ${namespace}:${id}`, `chains/${id}.yaml`);
  }
  const profiles = yamlOf(files.profiles);
  const pmap = isMap(profiles) ? profiles.profiles : null;
  if (isMap(pmap))
    for (const [name, p] of Object.entries(pmap)) {
      if (!isMap(p)) continue;
      const where = `profile ${namespace}:${name}`;
      if (isMap(p.providers))
        for (const [prov, m] of Object.entries(p.providers))
          if (isMap(m) && typeof m.model === 'string') reach.add(`model ${m.model} on ${prov} in ${where}`);
      if (isMap(p.model))
        for (const [prov, m] of Object.entries(p.model))
          if (typeof m === 'string') reach.add(`model ${m} on ${prov} in ${where}`);
      walk(p.fallback, where, 'profiles.yaml');
    }
  for (const [name, text] of Object.entries(files.skills).sort(([a], [b]) => (a < b ? -1 : 1)))
    content.push({
      kind: 'skill',
      file: `skills/${name}/SKILL.md`,
      where: `skill ${namespace}:${name}`,
      text,
    });
  return { reach: [...reach].sort(), content };
}

export interface ReviewSide {
  manifest: AddonManifest;
  files: AddonFiles;
  digest: string;
}

/**
 * The review of installing `next` under `namespace`, or of moving the installed version to it:
 * `install`, `update`, `downgrade` (a lower version by SemVer precedence) or `none` (the same
 * version: only a version change updates). Content of an update lists only what changed, each with
 * its diff.
 */
export function reviewAddon(
  namespace: string,
  next: ReviewSide,
  installed: ReviewSide | null,
): Omit<AddonReviewBody, 'addon' | 'collection' | 'commit' | 'problems'> {
  const now = reachAndContent(namespace, next.manifest, next.files);
  if (installed === null)
    return {
      namespace,
      action: 'install',
      from: null,
      to: { version: next.manifest.version, digest: next.digest },
      reach: { lines: now.reach, added: now.reach, removed: [] },
      content: now.content.map((c) => ({ ...c, change: 'new', diff: null })),
      unchanged: 0,
    };
  const before = reachAndContent(namespace, installed.manifest, installed.files);
  const order = compare(next.manifest.version, installed.manifest.version);
  const key = (c: { kind: string; where: string }) => `${c.kind}\u0000${c.where}`;
  const old = new Map(before.content.map((c) => [key(c), c]));
  const content: AddonContentItem[] = [];
  let unchanged = 0;
  for (const c of now.content) {
    const o = old.get(key(c));
    old.delete(key(c));
    if (o === undefined) content.push({ ...c, change: 'new', diff: null });
    else if (o.text === c.text) unchanged++;
    else
      content.push({
        ...c,
        change: 'changed',
        diff: createTwoFilesPatch(
          `${installed.manifest.version}/${o.file}`,
          `${next.manifest.version}/${c.file}`,
          o.text.endsWith('\n') ? o.text : `${o.text}\n`,
          c.text.endsWith('\n') ? c.text : `${c.text}\n`,
          undefined,
          undefined,
          { context: 3 },
        ),
      });
  }
  for (const o of old.values()) content.push({ ...o, text: o.text, change: 'removed', diff: null });
  const was = new Set(before.reach);
  const is = new Set(now.reach);
  return {
    namespace,
    action: order > 0 ? 'update' : order < 0 ? 'downgrade' : 'none',
    from: { version: installed.manifest.version, digest: installed.digest },
    to: { version: next.manifest.version, digest: next.digest },
    reach: {
      lines: now.reach,
      added: now.reach.filter((l) => !was.has(l)),
      removed: before.reach.filter((l) => !is.has(l)),
    },
    content,
    unchanged,
  };
}
