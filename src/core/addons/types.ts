import type { AddonManifest } from '../../contract/addons.js';

/*
 * An add-on as files (docs/addons.md): what a directory holds that Jig reads. Everything else in
 * the directory (a Claude Code plugin's own files, a README) is ignored. Readers in runtime/ and
 * client/ fill it; every check and the review work on it, so they need no file system.
 */
export interface AddonFiles {
  /** `.jig/addon.json`; null when missing. */
  manifest: string | null;
  /** `library.yaml`; null when the add-on has none. */
  library: string | null;
  /** `profiles.yaml`; null when the add-on has none. */
  profiles: string | null;
  /** Chain id (file stem of `chains/<id>.yaml`) -> text. */
  chains: Record<string, string>;
  /** Skill name (folder of `skills/<s>/SKILL.md`) -> text. */
  skills: Record<string, string>;
}

/** An add-on installed in this instance under a namespace (its name, or the `--as` alias). */
export interface InstalledAddon {
  namespace: string;
  manifest: AddonManifest;
  /** `sha256:…` of the files, as addons.lock pins it. */
  digest: string;
  /** Absolute directory of the installed copy (skills are read from it at launch). */
  dir: string;
  files: AddonFiles;
}

/** What the instance offers an add-on's `requires`; null where it is unknown (no home: `validate` in CI). */
export interface InstanceFacts {
  /** Jig's own version (`2.0.0`). */
  version: string;
  harnesses: readonly string[] | null;
  profiles: readonly string[] | null;
}

/** One refusal: the add-on file it is in (`.jig/addon.json`, `chains/ship.yaml`), and where. */
export interface AddonProblem {
  file: string;
  line: number | null;
  message: string;
}

export interface AddonCheck {
  /** The manifest when it parsed and passed its schema (the content may still have problems). */
  manifest: AddonManifest | null;
  problems: AddonProblem[];
  /** Instance checks not made because no instance facts were given (`skipped:` lines). */
  skipped: string[];
}
