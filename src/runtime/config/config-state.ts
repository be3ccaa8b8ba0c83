import { chainBreaks } from '../../core/drafts/settings/chain-breaks.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { formatProblem, type Problem } from '../../contract/problems.js';
import type { ReloadAnswer } from '../../contract/reload.js';
import type { AddonSetLoad } from '../../core/addons/load.js';
import type { ChainLoad } from '../../core/chain/load-chain.js';
import type { LibraryLoad } from '../../core/chain/load-library.js';
import type { ChainCatalog, ChainLookup } from '../items/chain-catalog.js';
import type { IntakeFile } from '../../contract/config/intake.js';
import type { PolicyFile } from '../../contract/config/policy.js';
import { toPlain } from '../../core/config/tree.js';
import { takeSeededTrees } from './seeded-trees.js';
import { validateConfigSet, type ConfigSet } from '../../core/config/validate-set.js';
import type { FileLoad } from '../../core/config/load-file.js';
import { LastValidated, READ_WHEN_NEEDED_FILES, readConfigDir, sha256Text } from './config-dir.js';
import { intakeVerdict, policyVerdict } from './verdicts.js';
import { own } from '../../core/json/own.js';

type Refused = ReloadAnswer['refused'][number];

/**
 * A settings file another service owns and rereads at every reload (notify.yaml): the reload runs
 * `reload` and names the file loaded or refused, so no file it could not load goes unsaid.
 */
export interface ReloadedFile {
  file: string;
  /** Rereads the file into its owner; answers its problems ([] when it loads). */
  reload(): Problem[];
  /** The problems of the file on disk now, without loading it. */
  check(): Problem[];
}

/** A file on disk that a reload would refuse (or, read when needed, report), for the board's banner. */
export interface DiskRefusal {
  file: string;
  problems: Problem[];
  /** A version of it loaded earlier still runs: a library, chain, policy or intake file. */
  kept: boolean;
}

const describe = (problems: readonly Problem[]): string => problems.map(formatProblem).join('; ');

/**
 * The configuration that is running, and what was refused. A file that does not load keeps its
 * running version (a chain refused on reload keeps running as it was; a refused library keeps the
 * whole library and its chains) and is reported on health until a good file loads.
 */
export class ConfigState implements ChainCatalog {
  private library: LibraryLoad | null = null;
  private addonSet: AddonSetLoad | null = null;
  private chains = new Map<string, ChainLoad>();
  private invalid: Record<'templates' | 'addons' | 'policy' | 'intake', string | null> = {
    templates: null,
    addons: null,
    policy: null,
    intake: null,
  };
  private intakeOffFlag = false;
  private policyModel: PolicyFile | null = null;
  private intakeModel: IntakeFile | null = null;
  private readonly listeners = new Set<(what: ReloadAnswer) => void>();
  private readonly owned: ReloadedFile[] = [];
  private readonly validated = new LastValidated();
  /** Extra checks on intake.yaml that live outside the file schema (the cron dialect). */
  private readonly intakeRules: (load: FileLoad<IntakeFile>) => Problem[];
  /** Extra checks on policy.yaml outside its schema (legacy `triggers:` crons that cannot be read). */
  private readonly policyRules: (load: FileLoad<PolicyFile>) => Problem[];

  /** sha256 of the text running, per file (library, chains, policy, intake); absent = none running. */
  private readonly runningSha = new Map<string, string | null>();
  /** sha256 of harnesses.yaml and repos.yaml as the last reload checked them. */
  private readonly checkedSha = new Map<string, string | null>();

  /**
   * `addonsDir`: the add-on content store (`$JIG_HOME/addons`); null reads no add-ons. `rules`: the
   * checks of intake.yaml and policy.yaml that live outside their schemas (cron-rules.ts).
   */
  constructor(
    private readonly configDir: string,
    readonly addonsDir: string | null = null,
    rules: {
      intake?: (load: FileLoad<IntakeFile>) => Problem[];
      policy?: (load: FileLoad<PolicyFile>) => Problem[];
    } = {},
  ) {
    this.intakeRules = rules.intake ?? (() => []);
    this.policyRules = rules.policy ?? (() => []);
  }

  /** The first load at start; an intake file that does not load turns schedules off. */
  loadAtStart(): ReloadAnswer {
    takeSeededTrees();
    const answer = this.reload();
    this.intakeOffFlag = this.invalid.intake !== null;
    return answer;
  }

  /**
   * Rereads every file as one set (`validateConfigSet`, so the checks across files run too) and
   * runs what loads. Library and chain files are refused for any problem, cross-file ones included
   * (a task naming a harness, profile or steering that does not exist, a cap past the maxima);
   * policy.yaml and intake.yaml as `verdicts.ts` says; harnesses.yaml and repos.yaml are only
   * reported, since they are read when needed.
   */
  reload(): ReloadAnswer {
    const read = readConfigDir(this.configDir, this.addonsDir);
    const set = validateConfigSet(read.texts);
    const answer: ReloadAnswer = { loaded: [], refused: [], warnings: [] };
    this.reloadTemplates(set, read.hashes, answer);
    this.reloadPolicy(set, read.texts.policy ?? null, answer);
    this.reloadIntake(set, read.texts.intake ?? null, answer);
    for (const file of READ_WHEN_NEEDED_FILES) {
      const f = set.files[file]!;
      this.checkedSha.set(file, read.hashes.get(file) ?? null);
      if (f.problems.length > 0) answer.refused.push({ file, problems: f.problems });
      else answer.loaded.push(file);
      warn(answer, file, f.warnings);
    }
    for (const o of this.owned) {
      const problems = o.reload();
      if (problems.length > 0) answer.refused.push({ file: o.file, problems });
      else answer.loaded.push(o.file);
    }
    this.notify(answer);
    return answer;
  }

  /** Adds a file its own service rereads at each reload (from then on; it is not read here now). */
  reloadsWith(file: ReloadedFile): void {
    this.owned.push(file);
  }

  /**
   * Every file on disk a reload would not load now, with its problems: what the board's banner
   * names. Checked as a reload checks (the set is validated again only when a file changed).
   */
  diskRefusals(): DiskRefusal[] {
    const read = readConfigDir(this.configDir, this.addonsDir);
    const set = this.validated.of(read);
    const out: DiskRefusal[] = [];
    const add = (file: string, problems: Problem[], kept: boolean) => {
      if (problems.length > 0) out.push({ file, problems, kept });
    };
    add(set.library.file, set.library.problems, this.library !== null);
    for (const c of Object.values(set.chains)) {
      add(c.file, c.problems, this.chains.has(c.id));
    }
    add(
      'policy.yaml',
      policyVerdict(set, read.texts.policy ?? null, this.policyRules).problems,
      this.policyModel !== null,
    );
    add(
      'intake.yaml',
      intakeVerdict(set, read.texts.intake ?? null, this.intakeRules).problems,
      this.intakeModel !== null,
    );
    for (const file of READ_WHEN_NEEDED_FILES) add(file, set.files[file]?.problems ?? [], false);
    for (const o of this.owned) add(o.file, o.check(), false);
    return out;
  }

  /**
   * Rereads policy.yaml alone (`PUT /api/policy` saved it), checked against the other files on
   * disk as a full reload would check it. Chains refused under the old policy wait for a reload.
   */
  reloadPolicyOnly(): ReloadAnswer {
    const read = readConfigDir(this.configDir, this.addonsDir);
    const set = validateConfigSet(read.texts);
    const answer: ReloadAnswer = { loaded: [], refused: [], warnings: [] };
    this.reloadPolicy(set, read.texts.policy ?? null, answer);
    this.notify(answer);
    return answer;
  }

  /**
   * Rereads intake.yaml alone (a published intake draft): the schedule poller follows every
   * reload, so the new interval and schedules are live without a restart.
   */
  reloadIntakeOnly(): ReloadAnswer {
    const read = readConfigDir(this.configDir, this.addonsDir);
    const set = validateConfigSet(read.texts);
    const answer: ReloadAnswer = { loaded: [], refused: [], warnings: [] };
    this.reloadIntake(set, read.texts.intake ?? null, answer);
    this.notify(answer);
    return answer;
  }

  /**
   * What a reload would say of this policy.yaml text, checked against the other files on disk:
   * the problems that would refuse it, its warnings, and the problems it would add to chains
   * (a cap past a new maximum, a harness no longer allowed).
   */
  checkPolicyText(text: string): { problems: Problem[]; warnings: Problem[]; breaks: Problem[] } {
    const read = readConfigDir(this.configDir, this.addonsDir);
    const before = validateConfigSet(read.texts);
    const after = validateConfigSet({ ...read.texts, policy: text });
    const v = policyVerdict(after, text, this.policyRules);
    return { problems: v.problems, warnings: v.warnings, breaks: chainBreaks(before, after) };
  }

  /**
   * What a reload would say of this library.yaml or chain text (`chain` null: the library), checked
   * against the other files on disk: the file's own problems, and the problems it would bring to
   * the library and the chains that were not there before.
   */
  checkTemplateText(chain: string | null, text: string): { problems: Problem[]; breaks: Problem[] } {
    const read = readConfigDir(this.configDir, this.addonsDir);
    const before = validateConfigSet(read.texts);
    const texts =
      chain === null
        ? { ...read.texts, library: text }
        : { ...read.texts, chains: { ...read.texts.chains, [chain]: text } };
    const after = validateConfigSet(texts);
    const mine = chain === null ? after.library.problems : (own(after.chains, chain)?.problems ?? []);
    return { problems: mine, breaks: chainBreaks(before, after) };
  }

  /**
   * Whether the running library defines steering `name` (own keys only: a name such as
   * `constructor` is no entry); null while no library is loaded, when nobody can tell.
   */
  steeringDefined(name: string): boolean | null {
    const steering = this.library?.model?.steering;
    if (!steering) return this.library?.model ? false : null;
    return Object.hasOwn(steering, name);
  }

  /** A library steering entry of the running library, as agent launches read it. */
  steering(name: string): { instructions: string } | undefined {
    const node = this.library?.index.lookup('steering', name);
    const plain = node ? (toPlain(node) as { instructions?: unknown }) : undefined;
    return typeof plain?.instructions === 'string' ? { instructions: plain.instructions } : undefined;
  }

  private notify(answer: ReloadAnswer): void {
    for (const l of this.listeners) l(answer);
  }

  /** Called after every (re)load, with what loaded and what was refused. */
  onReload(listener: (what: ReloadAnswer) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private reloadTemplates(set: ConfigSet, hashes: Map<string, string | null>, answer: ReloadAnswer): void {
    const refused: Refused[] = [];
    const library = set.library;
    warn(answer, library.file, library.warnings);
    if (library.problems.length > 0) {
      refused.push({ file: library.file, problems: library.problems });
    } else {
      answer.loaded.push(library.file);
      this.runningSha.set(library.file, hashes.get(library.file) ?? null);
      const next = new Map<string, ChainLoad>();
      const running = new Set<string>();
      for (const load of Object.values(set.chains)) {
        warn(answer, load.file, load.warnings);
        if (load.problems.length === 0 && load.resolved) {
          next.set(load.id, load);
          answer.loaded.push(load.file);
          this.runningSha.set(load.file, hashes.get(load.file) ?? null);
          running.add(load.file);
        } else {
          refused.push({ file: load.file, problems: load.problems });
          const kept = this.chains.get(load.id);
          if (kept) {
            next.set(load.id, kept);
            running.add(load.file);
          }
        }
      }
      for (const file of [...this.runningSha.keys()])
        if (file.startsWith('chains/') && !running.has(file)) this.runningSha.delete(file);
      // An add-on's chains run as `<namespace>:<id>`; an add-on that does not load offers none,
      // and says why without refusing new work on the instance's own chains.
      for (const [ref, load] of Object.entries(set.addons.chains)) if (load.resolved) next.set(ref, load);
      const broken = Object.values(set.addons.addons).filter((a) => a.problems.length > 0);
      for (const a of broken) answer.refused.push({ file: `addons/${a.namespace}`, problems: a.problems });
      this.invalid.addons =
        broken.length === 0
          ? null
          : broken.map((a) => `add-on \`${a.namespace}\`: ${describe(a.problems)}`).join('; ');
      this.addonSet = set.addons;
      this.library = library;
      this.chains = next;
    }
    answer.refused.push(...refused);
    this.invalid.templates =
      refused.length === 0 ? null : refused.map((r) => describe(r.problems)).join('; ');
  }

  private reloadPolicy(set: ConfigSet, text: string | null, answer: ReloadAnswer): void {
    const v = policyVerdict(set, text, this.policyRules);
    warn(answer, 'policy.yaml', v.warnings);
    if (v.problems.length > 0 || !v.load.model) {
      answer.refused.push({ file: 'policy.yaml', problems: v.problems });
      this.invalid.policy = describe(v.problems);
      return;
    }
    answer.loaded.push('policy.yaml');
    this.invalid.policy = null;
    this.policyModel = v.load.model;
    this.runningSha.set('policy.yaml', sha256Text(text));
  }

  private reloadIntake(set: ConfigSet, text: string | null, answer: ReloadAnswer): void {
    const v = intakeVerdict(set, text, this.intakeRules);
    warn(answer, 'intake.yaml', v.warnings);
    if (v.problems.length > 0 || !v.load.model) {
      answer.refused.push({ file: 'intake.yaml', problems: v.problems });
      this.invalid.intake = describe(v.problems);
      return;
    }
    answer.loaded.push('intake.yaml');
    this.invalid.intake = null;
    this.intakeOffFlag = false;
    this.intakeModel = v.load.model;
    this.runningSha.set('intake.yaml', sha256Text(text));
  }

  /** sha256 of the text running, per file; a file with no entry has no running version. */
  get runningHashes(): ReadonlyMap<string, string | null> {
    return this.runningSha;
  }

  /** sha256 of harnesses.yaml and repos.yaml as the last reload checked them. */
  get checkedHashes(): ReadonlyMap<string, string | null> {
    return this.checkedSha;
  }

  lookup(id: string): ChainLookup {
    const load = this.chains.get(id);
    if (!load?.resolved) {
      const colon = id.indexOf(':');
      const addon = colon > 0 ? own(this.addonSet?.addons, id.slice(0, colon)) : undefined;
      if (addon && own(addon.chains, id.slice(colon + 1)) !== undefined)
        return {
          ok: false,
          reason: 'unresolved',
          detail: !addon.enabled
            ? `add-on \`${addon.namespace}\` is disabled`
            : `add-on \`${addon.namespace}\` does not load: ${describe(addon.problems)}`,
        };
      const exists = colon < 0 && existsSync(join(this.configDir, 'chains', `${id}.yaml`));
      if (!exists) return { ok: false, reason: 'unknown', known: [...this.chains.keys()] };
      return {
        ok: false,
        reason: 'unresolved',
        detail: this.invalid.templates ?? 'the chain file does not load',
      };
    }
    return {
      ok: true,
      chain: {
        id,
        definition: load.resolved,
        nodes: load.resolved.nodes.map((n) => ({ id: n.id, kind: n.kind, skippable: n.skippable !== false })),
      },
    };
  }

  /** Running chains by id. */
  get runningChains(): ReadonlyMap<string, ChainLoad> {
    return this.chains;
  }

  get runningLibrary(): LibraryLoad | null {
    return this.library;
  }

  /** The running policy.yaml (null until one loads). */
  get policy(): PolicyFile | null {
    return this.policyModel;
  }

  /** The running intake.yaml (null until one loads). */
  get intake(): IntakeFile | null {
    return this.intakeModel;
  }

  /** Why new work is refused right now (library, a chain or policy does not load), else null. */
  get newWorkBlocked(): { what: string; reason: string } | null {
    if (this.invalid.templates) return { what: 'the library or a chain', reason: this.invalid.templates };
    if (this.invalid.policy) return { what: 'policy.yaml', reason: this.invalid.policy };
    return null;
  }

  /** Why a library, chain or add-on file does not load; add-ons do not block new work. */
  get invalidTemplates(): string | null {
    const parts = [this.invalid.templates, this.invalid.addons].filter((p) => p !== null);
    return parts.length === 0 ? null : parts.join('; ');
  }

  /** The installed add-ons as the running library loaded them (empty until the first load). */
  get addons(): AddonSetLoad | null {
    return this.addonSet;
  }
  get invalidPolicy(): string | null {
    return this.invalid.policy;
  }
  get invalidIntake(): string | null {
    return this.invalid.intake;
  }
  get intakeOff(): boolean {
    return this.intakeOffFlag;
  }
  get degraded(): boolean {
    return (
      this.invalid.templates !== null ||
      this.invalid.addons !== null ||
      this.invalid.policy !== null ||
      this.invalid.intake !== null
    );
  }
}

function warn(answer: ReloadAnswer, file: string, problems: readonly Problem[]): void {
  if (problems.length > 0) (answer.warnings ??= []).push({ file, problems: [...problems] });
}

/** Every problem of the library and chain files of a set. */
