import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatProblem, type Problem } from '../../contract/problems.js';
import type { ReloadAnswer } from '../../contract/reload.js';
import { loadChain, type ChainLoad } from '../../core/chain/load-chain.js';
import { loadLibrary, type LibraryLoad } from '../../core/chain/load-library.js';
import type { ChainCatalog, ChainLookup } from '../items/chain-catalog.js';
import { readYamlMapping } from './yaml-file.js';

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
  private policyData: Record<string, unknown> = {};

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
    this.reloadPlain('policy.yaml', 'policy', answer);
    this.reloadPlain('intake.yaml', 'intake', answer);
    return answer;
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

  private reloadPlain(file: string, group: 'policy' | 'intake', answer: ReloadAnswer): void {
    const read = readYamlMapping(join(this.configDir, file), file);
    if (!read.ok && !read.missing) {
      answer.refused.push({ file, problems: read.problems });
      this.invalid[group] = describe(read.problems);
      return;
    }
    answer.loaded.push(file);
    this.invalid[group] = null;
    if (group === 'intake') this.intakeOffFlag = false;
    if (group === 'policy')
      this.policyData = read.ok ? ((read.doc.toJS() ?? {}) as Record<string, unknown>) : {};
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

  /** The running policy.yaml, as plain data. */
  get policy(): Record<string, unknown> {
    return this.policyData;
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
