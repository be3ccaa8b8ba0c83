import type { AgentProfile, HarnessesFile } from '../../contract/config/harnesses.js';
import { loadAddonSet, type AddonSetLoad } from '../../core/addons/load.js';
import { versionDir } from '../../core/addons/installed.js';
import { toPlain } from '../../core/config/tree.js';
import type { ConfigState } from '../config/config-state.js';
import { stripFrontMatter } from '../harness/skills.js';
import { readAddonFiles } from './files.js';
import { own } from '../../core/json/own.js';

/** Namespace → digest: the versions a frozen chain uses (ResolvedChain `addons`). */
export type AddonPins = Readonly<Record<string, string>> | undefined;

type Text = { ok: true; text: string; origin: string } | { ok: false; reason: string };

/**
 * What an agent launch reads of an add-on — skills, profiles, steering — at the version the item's
 * chain pinned, so an update never changes work already running (ADR 0020). A version folder is
 * content-addressed and never rewritten, so each is loaded once and kept once found.
 */
export class AddonContent {
  private readonly loaded = new Map<string, { set: AddonSetLoad; skills: Record<string, string> }>();

  constructor(
    private readonly addonsDir: string,
    private readonly config: ConfigState,
  ) {}

  /** The digest a launch reads a namespace at: the chain's pin, else the version installed now. */
  private digestOf(ns: string, pins: AddonPins): string | null {
    return own(pins, ns) ?? own(this.config.addons?.digests, ns) ?? null;
  }

  private version(ns: string, digest: string) {
    const key = `${ns}@${digest}`;
    const had = this.loaded.get(key);
    if (had) return had;
    const files = readAddonFiles(versionDir(this.addonsDir, ns, digest));
    // A missing folder is not remembered: the restore at start, or an install of the same
    // version, puts it back, and the item's retry must then find it.
    if (files.manifest === null) return null;
    // No instance facts: what the instance offers was checked when the version was installed.
    const v = {
      set: loadAddonSet([{ namespace: ns, digest, files, enabled: true }], null),
      skills: files.skills,
    };
    this.loaded.set(key, v);
    return v;
  }

  /**
   * Why a launch cannot read the versions the chain pinned (a folder missing from the content
   * store: a home copied without it, or removed by hand), else null: said before any launch, so the
   * stop names the cause rather than the profile or skill it made unreadable.
   */
  missing(pins: AddonPins): string | null {
    for (const [ns, digest] of Object.entries(pins ?? {})) {
      if (this.version(ns, digest) !== null) continue;
      return `add-on \`${ns}\` at ${digest.slice(0, 19)}…, the version this item started with, is not in ${this.addonsDir}: install that version again (the restore at start does, from addons.lock) and retry`;
    }
    return null;
  }

  /** `<namespace>:<name>` of a skill, read from the pinned version. */
  skill(ref: string, pins: AddonPins): Text {
    const [ns, name] = split(ref);
    const digest = this.digestOf(ns, pins);
    if (digest === null) return { ok: false, reason: `add-on \`${ns}\` is not installed` };
    const v = this.version(ns, digest);
    if (v === null)
      return { ok: false, reason: `add-on \`${ns}\` version ${digest} is not in ${this.addonsDir}` };
    const text = own(v.skills, name);
    if (text === undefined) return { ok: false, reason: `add-on \`${ns}\` has no skill \`${name}\`` };
    const body = stripFrontMatter(text);
    if (body.trim() === '') return { ok: false, reason: `add-on \`${ns}\` skill \`${name}\` is empty` };
    return {
      ok: true,
      text: body,
      origin: `${versionDir(this.addonsDir, ns, digest)}/skills/${name}/SKILL.md`,
    };
  }

  /** `<namespace>:<name>` of a steering entry, from the pinned version. */
  steering(ref: string, pins: AddonPins): { instructions: string } | undefined {
    const [ns, name] = split(ref);
    const digest = this.digestOf(ns, pins);
    const node = digest === null ? undefined : this.version(ns, digest)?.set.lookup('steering', ns, name);
    const plain = node ? (toPlain(node) as { instructions?: unknown }) : undefined;
    return typeof plain?.instructions === 'string' ? { instructions: plain.instructions } : undefined;
  }

  /**
   * harnesses.yaml with the profiles of the add-ons the chain uses added as `<namespace>:<name>`,
   * each from its pinned version: the launch picks models from them as from any profile.
   */
  withProfiles(harnesses: HarnessesFile, pins: AddonPins): HarnessesFile {
    const added: Record<string, AgentProfile> = {};
    const namespaces = new Set([
      ...Object.keys(pins ?? {}),
      ...Object.keys(this.config.addons?.digests ?? {}),
    ]);
    for (const ns of namespaces) {
      const digest = this.digestOf(ns, pins);
      const v = digest === null ? null : this.version(ns, digest);
      if (v) Object.assign(added, v.set.profiles);
    }
    return Object.keys(added).length === 0
      ? harnesses
      : { ...harnesses, profiles: { ...harnesses.profiles, ...added } };
  }
}

function split(ref: string): [string, string] {
  const colon = ref.indexOf(':');
  return [ref.slice(0, colon), ref.slice(colon + 1)];
}
