import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatProblem, type Problem } from '../../contract/problems.js';
import type { ReloadAnswer } from '../../contract/reload.js';
import { loadChain, type ChainLoad } from '../../core/chain/load-chain.js';
import { loadLibrary, type LibraryLoad } from '../../core/chain/load-library.js';
import type { ChainCatalog, ChainLookup } from '../items/chain-catalog.js';
import type { IntakeFile } from '../../contract/config/intake.js';
import type { PolicyFile } from '../../contract/config/policy.js';
import { loadIntake, loadPolicy } from '../../core/config/load-settings.js';
import type { FileLoad } from '../../core/config/load-file.js';

type Refused = ReloadAnswer['refused'][number];

function chainIds(configDir: string): string[] {
  const dir = join(configDir, 'chains');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => f.slice(0, -'.yaml'.length))
    .sort();
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

const describe = (problems: readonly Problem[]): string => problems.map(formatProblem).join('; ');

/**
 * The configuration that is running, and what was refused. A file that does not load keeps its
 * running version (a chain refused on reload keeps running as it was; a refused library keeps the
 * whole library and its chains) and is reported on health until a good file loads.
 */
export class ConfigState implements ChainCatalog {
  private library: LibraryLoad | null = null;
  private chains = new Map<string, ChainLoad>();
  private invalid: Record<'templates' | 'policy' | 'intake', string | null> = {
    templates: null,
    policy: null,
    intake: null,
  };
  private intakeOffFlag = false;
  private policyModel: PolicyFile | null = null;
  private intakeModel: IntakeFile | null = null;
  private readonly listeners = new Set<(what: ReloadAnswer) => void>();
  /** Extra checks on intake.yaml that live outside the file schema (the cron dialect). */
  intakeRules: (load: FileLoad<IntakeFile>) => Problem[] = () => [];
  /** Extra checks on policy.yaml outside its schema (legacy `triggers:` crons that cannot be read). */
  policyRules: (load: FileLoad<PolicyFile>) => Problem[] = () => [];

  constructor(private readonly configDir: string) {}

  /** The first load at start; an intake file that does not load turns schedules off. */
  loadAtStart(): ReloadAnswer {
    const answer = this.reload();
    this.intakeOffFlag = this.invalid.intake !== null;
    return answer;
  }

  reload(): ReloadAnswer {
    const answer: ReloadAnswer = { loaded: [], refused: [] };
    this.reloadTemplates(answer);
    this.reloadPolicy(answer);
    this.reloadIntake(answer);
    for (const l of this.listeners) l(answer);
    return answer;
  }

  /** Called after every (re)load, with what loaded and what was refused. */
  onReload(listener: (what: ReloadAnswer) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private reloadTemplates(answer: ReloadAnswer): void {
    const refused: Refused[] = [];
    const library = loadLibrary(readText(join(this.configDir, 'library.yaml')));
    if (library.problems.length > 0) {
      refused.push({ file: 'library.yaml', problems: library.problems });
    } else {
      answer.loaded.push('library.yaml');
      const next = new Map<string, ChainLoad>();
      for (const id of chainIds(this.configDir)) {
        const text = readText(join(this.configDir, 'chains', `${id}.yaml`)) ?? '';
        const load = loadChain(id, text, { library: library.index, resolver: library.resolver });
        if (load.problems.length === 0 && load.resolved) {
          next.set(id, load);
          answer.loaded.push(load.file);
        } else {
          refused.push({ file: load.file, problems: load.problems });
          const running = this.chains.get(id);
          if (running) next.set(id, running);
        }
      }
      this.library = library;
      this.chains = next;
    }
    answer.refused.push(...refused);
    this.invalid.templates =
      refused.length === 0 ? null : refused.map((r) => describe(r.problems)).join('; ');
  }

  private reloadPolicy(answer: ReloadAnswer): void {
    const load = loadPolicy(readText(join(this.configDir, 'policy.yaml')));
    const problems = [...load.problems, ...(load.model ? this.policyRules(load) : [])];
    if (problems.length > 0 || !load.model) {
      answer.refused.push({ file: 'policy.yaml', problems });
      this.invalid.policy = describe(problems);
      return;
    }
    answer.loaded.push('policy.yaml');
    this.invalid.policy = null;
    this.policyModel = load.model;
  }

  private reloadIntake(answer: ReloadAnswer): void {
    const load = loadIntake(readText(join(this.configDir, 'intake.yaml')));
    const problems = [...load.problems, ...(load.model ? this.intakeRules(load) : [])];
    if (problems.length > 0 || !load.model) {
      answer.refused.push({ file: 'intake.yaml', problems });
      this.invalid.intake = describe(problems);
      return;
    }
    answer.loaded.push('intake.yaml');
    this.invalid.intake = null;
    this.intakeOffFlag = false;
    this.intakeModel = load.model;
  }

  lookup(id: string): ChainLookup {
    const load = this.chains.get(id);
    if (!load?.resolved) {
      const exists = existsSync(join(this.configDir, 'chains', `${id}.yaml`));
      if (!exists) return { ok: false, reason: 'unknown' };
      return {
        ok: false,
        reason: 'unresolved',
        detail: this.invalid.templates ?? 'the chain file does not load',
      };
    }
    return {
      ok: true,
      chain: { id, nodes: load.resolved.nodes.map((n) => ({ id: n.id, kind: n.kind })) },
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

  get invalidTemplates(): string | null {
    return this.invalid.templates;
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
    return this.invalid.templates !== null || this.invalid.policy !== null || this.invalid.intake !== null;
  }
}
