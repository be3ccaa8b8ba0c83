import { LIBRARY_SECTIONS } from '../../contract/config/library.js';
import type { RepoEntry } from '../../contract/config/repos.js';
import { JigError } from '../../contract/errors.js';
import { formatProblem, type Problem } from '../../contract/problems.js';
import type {
  ChainListAnswer,
  LibraryAnswer,
  LibraryComponent,
  ProfilesAnswer,
  ResolvedChainAnswer,
  SteeringPreviewAnswer,
} from '../../contract/templates.js';
import { fillNodeDefaults, withId } from '../../core/chain/fill-defaults.js';
import type { ChainLoad } from '../../core/chain/load-chain.js';
import { chainSources } from '../../core/chain/sources.js';
import { walkChain } from '../../core/chain/walk.js';
import { loadHarnesses } from '../../core/config/load-settings.js';
import { toPlain, type ANode } from '../../core/config/tree.js';
import type { ConfigSet } from '../../core/config/validate-set.js';
import { composeSteering } from '../../core/steering/compose.js';
import { LastValidated, readConfigDir, readConfigText } from './config-dir.js';
import type { ConfigState } from './config-state.js';

const LIBRARY_REF = /^(nodes|steps|tasks|steering)\.([^.]+)$/;

/** Every `library:<section>.<name>` layer that wrote a piece of a merged tree. */
function librarySources(node: ANode, out: Set<string>): void {
  if (node.origin.source.startsWith('library:')) out.add(node.origin.source.slice('library:'.length));
  if (node.t === 'seq') for (const i of node.items) librarySources(i, out);
  if (node.t === 'map') {
    for (const e of node.entries) {
      if (e.origin.source.startsWith('library:')) out.add(e.origin.source.slice('library:'.length));
      librarySources(e.value, out);
    }
  }
}

function steeringOf(load: ChainLoad): Set<string> {
  const names = new Set<string>();
  if (!load.checked) return names;
  for (const v of walkChain(load.checked)) {
    const s = v.value.steering;
    if (v.kind === 'task' && Array.isArray(s)) for (const n of s) if (typeof n === 'string') names.add(n);
  }
  return names;
}

function atComponent(problems: readonly Problem[], ref: string): Problem[] {
  return problems.filter((p) => p.path === ref || p.path.startsWith(`${ref}.`));
}

/**
 * The Templates screens' reads. Chains and the library are read from the files on disk now and
 * checked as one set (so an edit shows before a reload runs it); the steering preview answers what
 * a launch would read, so it uses the running library and chain.
 */
export class TemplatesService {
  constructor(
    private readonly configDir: string,
    private readonly config: ConfigState,
    private readonly findRepo: (path: string) => RepoEntry | null,
  ) {}

  /** Every template route reads the whole set, and the board asks several at once. */
  private readonly validated = new LastValidated();

  private set(): ConfigSet {
    return this.validated.of(readConfigDir(this.configDir, this.config.addonsDir));
  }

  listChains(): ChainListAnswer {
    const set = this.set();
    const chains = Object.values(set.chains).map((c) => {
      const nodes = (c.resolved?.nodes ?? c.model?.nodes ?? []) as { kind?: unknown }[];
      return {
        id: c.id,
        file: c.file,
        description: c.resolved?.description ?? c.model?.description ?? null,
        nodes: nodes.length,
        gates: nodes.filter((n) => n.kind === 'gate').length,
        resolves: c.resolved !== null && c.problems.length === 0,
        running: this.config.runningChains.has(c.id),
        problems: c.problems,
      };
    });
    return { chains };
  }

  resolvedChain(id: string): ResolvedChainAnswer {
    const set = this.set();
    const load = Object.hasOwn(set.chains, id) ? set.chains[id] : undefined;
    if (!load) throw new JigError('not_found', { what: `chain ${id}` });
    if (!load.resolved || load.problems.length > 0) {
      throw new JigError(
        'chain_unresolved',
        { chain: id, reason: load.problems.map(formatProblem).join('; ') || 'it does not resolve' },
        { problems: load.problems },
      );
    }
    const sources = chainSources(load, set.policy.model ?? this.config.policy) ?? {};
    return {
      id,
      resolved: load.resolved,
      sources,
      warnings: load.warnings,
      running: this.config.runningChains.has(id),
    };
  }

  private components(set: ConfigSet): LibraryComponent[] {
    const lib = set.library;
    const usedBy = new Map<string, Set<string>>();
    const use = (ref: string, chain: string): void => {
      let s = usedBy.get(ref);
      if (!s) usedBy.set(ref, (s = new Set()));
      s.add(chain);
    };
    for (const c of Object.values(set.chains)) {
      if (c.tree) {
        const refs = new Set<string>();
        librarySources(c.tree, refs);
        for (const r of refs) use(r, c.id);
      }
      for (const s of steeringOf(c)) use(`steering.${s}`, c.id);
    }
    const repoUses = new Map<string, string[]>();
    for (const r of set.repos.model?.repos ?? []) {
      for (const s of r.steering ?? []) {
        const ref = `steering.${s}`;
        repoUses.set(ref, [...(repoUses.get(ref) ?? []), r.path]);
      }
    }
    const out: LibraryComponent[] = [];
    for (const section of LIBRARY_SECTIONS) {
      for (const name of lib.index.names[section]) {
        const ref = `${section}.${name}`;
        const raw = lib.index.lookup(section, name);
        let resolved: unknown = raw ? toPlain(raw) : null;
        if (section !== 'steering') {
          // Each component resolves by itself, so one with problems leaves the others readable.
          const r = lib.resolver.libraryComponent(section, name, []);
          const whole = r ? withId(r, name) : null;
          resolved = whole ? toPlain(section === 'nodes' ? fillNodeDefaults(whole) : whole) : null;
        }
        out.push({
          ref,
          section,
          name,
          written: raw ? toPlain(raw) : null,
          resolved,
          used_by: { chains: [...(usedBy.get(ref) ?? [])].sort(), repos: repoUses.get(ref) ?? [] },
          problems: atComponent(lib.problems, ref),
        });
      }
    }
    return out;
  }

  library(): LibraryAnswer {
    const set = this.set();
    return {
      file: 'library.yaml',
      model: set.library.model ?? null,
      components: this.components(set),
      problems: set.library.problems,
      warnings: set.library.warnings,
    };
  }

  libraryComponent(ref: string): LibraryComponent {
    const m = LIBRARY_REF.exec(ref);
    const set = this.set();
    const found = m ? this.components(set).find((c) => c.ref === ref) : undefined;
    if (!found) throw new JigError('not_found', { what: `library component ${ref}` });
    return found;
  }

  steeringPreview(chainId: string, taskPath: string, repoPath: string | undefined): SteeringPreviewAnswer {
    const look = this.config.lookup(chainId);
    if (!look.ok && look.reason === 'unknown') throw new JigError('not_found', { what: `chain ${chainId}` });
    if (!look.ok) throw new JigError('chain_unresolved', { chain: chainId, reason: look.detail });
    const load = this.config.runningChains.get(chainId)!;
    const visit = walkChain(load.checked).find((v) => v.kind === 'task' && v.path === taskPath);
    if (!visit) throw new JigError('not_found', { what: `task ${taskPath} in chain ${chainId}` });
    if (visit.value.kind !== 'agent') {
      const message = `task ${taskPath} is a ${String(visit.value.kind)} task; only agent tasks read steering`;
      throw new JigError(
        'validation_failed',
        { reason: `querystring.task: ${message}` },
        { issues: [{ field: 'querystring.task', message }] },
      );
    }
    let repoSteering: string[] = [];
    if (repoPath !== undefined) {
      const entry = this.findRepo(repoPath);
      if (!entry) throw new JigError('repo_unknown', { path: repoPath });
      repoSteering = entry.steering ?? [];
    }
    const taskSteering = Array.isArray(visit.value.steering) ? (visit.value.steering as string[]) : [];
    const composed = composeSteering({
      repo: repoSteering,
      task: taskSteering,
      lookup: (name) => this.config.steering(name),
    });
    return { chain: chainId, task: taskPath, repo: repoPath ?? null, ...composed };
  }

  /** harnesses.yaml as on disk (it is read at every launch), profiles normalised per provider. */
  profiles(): ProfilesAnswer {
    const load = loadHarnesses(readConfigText(this.configDir, 'harnesses.yaml'));
    const m = load.model;
    if (!m) return { harnesses: [], profiles: [], problems: load.problems };
    return {
      harnesses: Object.entries(m.harnesses).map(([id, h]) => ({
        id,
        provider: h.provider,
        enabled: h.enabled,
        executable: h.executable ?? null,
        defaults: h.defaults ?? {},
      })),
      profiles: Object.entries(m.profiles).map(([name, p]) => {
        const providers: Record<string, { model: string; effort: string | null }> = {};
        if (p.providers) {
          for (const [prov, c] of Object.entries(p.providers))
            if (c) providers[prov] = { model: c.model, effort: c.effort ?? null };
        } else {
          for (const [prov, model] of Object.entries(p.model ?? {}))
            if (model) providers[prov] = { model, effort: p.effort ?? null };
        }
        return {
          name,
          written_as: p.providers ? ('providers' as const) : ('model_map' as const),
          providers,
          fallback: (p.fallback ?? []).map((f) =>
            Object.fromEntries(Object.entries(f).filter(([, v]) => typeof v === 'string')),
          ),
        };
      }),
      problems: load.problems,
    };
  }
}
