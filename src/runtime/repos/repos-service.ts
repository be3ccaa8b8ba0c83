import { existsSync, realpathSync, statSync } from 'node:fs';
import { workspaceViews } from '../../core/workspaces/view.js';
import { basename, isAbsolute, resolve } from 'node:path';
import { ForgeKind, RepoEntry } from '../../contract/config/repos.js';
import { JigError } from '../../contract/errors.js';
import type { ConnectBody, ProbeAnswer, RepoView } from '../../contract/repos.js';
import type { Store } from '../../store/database.js';
import { countOpenForRepo, openCountsByRepo, openItemsForRepo } from '../../store/work-items.js';

/** How many open items a refused disconnect names. */
const SHOWN_OPEN = 10;
import { repoTopLevel } from '../git/git.js';
import { packageRoot } from '../package-root.js';
import { probeRepo } from './probe.js';
import { readRepos, writeRepoEntry } from './repos-file.js';
import { mapPath, unmapPath, type PathMapping } from './path-map.js';
import { selectMembers, type Selection } from '../../core/workspaces/select.js';
import { requireKnownChain, type ChainCatalog } from '../items/chain-catalog.js';
import type { ConfigWriter } from '../config/config-writer.js';

/** A typo'd path is said to be missing, not "not a git repository" (which sends people to git init). */
function notMissing(abs: string): void {
  if (!existsSync(abs)) throw new JigError('repo_path_missing', { path: abs });
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Keys a repo must decide before it can be enabled (a test command; "" counts as decided). */
function undecided(e: RepoEntry): string[] {
  return e.test_command === undefined && (e.test_scopes?.length ?? 0) === 0 ? ['test_command'] : [];
}

function view(e: RepoEntry, open: number): RepoView {
  return {
    path: e.path,
    name: e.name ?? basename(e.path),
    enabled: e.enabled ?? true,
    managed: e.managed ?? true,
    default_chain: e.default_chain ?? 'default',
    test_command: e.test_command ?? null,
    setup_command: e.setup_command ?? null,
    forge: e.forge ?? null,
    project: e.project ?? null,
    exists: isDir(e.path),
    open_items: open,
    needs: undecided(e),
    entry: e,
  };
}

/** Connected repositories: repos.yaml is the truth, read when needed so hand edits count at once. */
export class ReposService {
  private readonly configDir: string;

  constructor(
    /** The home's config writer: each change reads, checks and writes repos.yaml as one of its operations. */
    private readonly writer: ConfigWriter,
    private readonly store: Store,
    private readonly startCwd: string = process.cwd(),
    /**
     * Checks a default chain and steering named in a request (a hand-edited repos.yaml is checked
     * at reload).
     */
    private readonly chains:
      (ChainCatalog & { steeringDefined?(name: string): boolean | null }) | null = null,
    /** A worker's `--repo-map`: the server's path of a repo, as checked out on this machine. */
    private readonly pathMap: readonly PathMapping[] = [],
    /** The default chain a newly connected repo gets, and why: `manual` on a machine with no agent CLI. */
    private readonly newRepoChain: () => { value: string; reason: string } = () => ({
      value: 'default',
      reason: 'the seeded chain',
    }),
  ) {
    this.configDir = writer.configDir;
  }

  private load() {
    const r = readRepos(this.configDir);
    if (!r.ok) throw new JigError('repos_file_invalid', { reason: r.error });
    return r;
  }

  /** Every connected entry, as repos.yaml lists them (throws repos_file_invalid when it does not load). */
  entries(): RepoEntry[] {
    return this.load().file.repos;
  }

  /** The connected entry for a path, comparing real paths so a link or trailing slash still matches. */
  find(asFiled: string): RepoEntry | null {
    const { file } = this.load();
    const path = mapPath(this.pathMap, asFiled);
    // Callers nearly always send the path as connected: only a miss pays for resolving links.
    const exact = file.repos.find((r) => r.path === path);
    if (exact) return exact;
    const want = canonical(path);
    return file.repos.find((r) => canonical(r.path) === want) ?? null;
  }

  /**
   * A connected entry's path as the server and the other processes know it: on a worker with
   * `--repo-map`, the server's path of its local checkout (records shared through the store use it).
   */
  shared(localPath: string): string {
    return unmapPath(this.pathMap, localPath);
  }

  /** The members of workspace `name` an item would run on, or null when there is no such workspace. */
  selectWorkspace(name: string, members?: readonly string[]): Selection | null {
    return selectMembers(this.load().file, name, members);
  }

  async list() {
    const r = this.load();
    const counts = await openCountsByRepo(this.store.db);
    const repos = r.file.repos.map((e) => view(e, counts[e.path] ?? 0));
    let suggested: { path: string; name: string } | null = null;
    const top = await this.startTop();
    // Jig's own clone (`node bin/jig.js serve` from it, as the README starts it) is never the
    // repository a newcomer means to connect: proposing it filled the first-run form with it.
    const own = canonical(packageRoot);
    if (top && canonical(top) !== own && !repos.some((x) => canonical(x.path) === canonical(top)))
      suggested = { path: top, name: basename(top) };
    return {
      repos,
      workspaces: workspaceViews(r.file),
      suggested,
      warnings: r.warnings,
    };
  }

  /**
   * The repository the server was started in, for `suggested`. Found once: the board lists repos on
   * every load, and each look was a git process. A folder that was no repository is looked at
   * again (it may have become one); one that was stays one for this process.
   */
  private async startTop(): Promise<string | null> {
    this.startTopFound ??= await repoTopLevel(this.startCwd);
    return this.startTopFound;
  }

  private startTopFound: string | null = null;

  async get(path: string): Promise<RepoView> {
    const e = this.find(path);
    if (!e) throw new JigError('repo_unknown', { path });
    return view(e, await countOpenForRepo(this.store.db, e.path));
  }

  async probe(path: string): Promise<ProbeAnswer> {
    const abs = absolute(path);
    notMissing(abs);
    if (!isDir(abs)) throw new JigError('repo_not_git', { path: abs });
    const p = await probeRepo(abs);
    const workspace = p.workspace && {
      ...p.workspace,
      members: p.workspace.members.map((m) => ({ ...m, connected: this.find(m.repo_path) !== null })),
    };
    return {
      ...p,
      workspace,
      connected: p.is_git && this.find(p.path) !== null,
      default_chain: this.newRepoChain(),
    };
  }

  /**
   * Connects a repository, or re-probes a connected one and saves what its entry left undecided
   * (which can enable a repo saved disabled for want of a test command). Answers the entry and
   * whether it was new.
   */
  async connect(body: ConnectBody): Promise<{ repo: RepoView; created: boolean }> {
    const abs = absolute(body.path);
    notMissing(abs);
    const probe = isDir(abs) ? await probeRepo(abs) : null;
    if (!probe?.is_git) throw new JigError('repo_not_git', { path: abs });
    const top = probe.path;
    if (!probe.has_commit) throw new JigError('repo_no_commit', { path: top });
    const saved = await this.writer.run((files) => {
      const r = this.load();
      const existing = r.file.repos.find((e) => canonical(e.path) === canonical(top)) ?? null;
      const base: RepoEntry = existing ?? {
        path: top,
        name: probe.name,
        default_chain: this.newRepoChain().value,
        managed: true,
      };
      const entry: RepoEntry = { ...base, managed: true };
      const chain = body.default_chain ?? body.default_chain_template;
      if (chain !== undefined) {
        if (this.chains) requireKnownChain(this.chains, chain);
        entry.default_chain = chain;
      }
      if (body.name !== undefined) entry.name = body.name;
      const wasUndecided = undecided(base).length > 0;
      if (body.test_command !== undefined) entry.test_command = body.test_command;
      else if (entry.test_command === undefined && probe.test_command)
        entry.test_command = probe.test_command.value;
      if (body.setup_command !== undefined) entry.setup_command = body.setup_command;
      else if (entry.setup_command === undefined && probe.setup_command)
        entry.setup_command = probe.setup_command.value;
      const forge = ForgeKind.safeParse(probe.forge?.value);
      if (entry.forge === undefined && forge.success) entry.forge = forge.data;
      if (entry.project === undefined && probe.project) entry.project = probe.project.value;
      const decided = undecided(entry).length === 0;
      if (body.enabled !== undefined) entry.enabled = body.enabled && decided;
      else if (!existing) entry.enabled = decided;
      else if (wasUndecided && decided) entry.enabled = true;
      const checked = RepoEntry.safeParse(entry);
      if (!checked.success) {
        throw new JigError('validation_failed', {
          reason: checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
        });
      }
      writeRepoEntry(files, this.configDir, r.doc, existing?.path ?? top, checked.data);
      return { entry: checked.data, created: !existing };
    });
    return { repo: view(saved.entry, await countOpenForRepo(this.store.db, top)), created: saved.created };
  }

  /** Changes keys of an entry (null clears one); the entry becomes managed, as a person chose it. */
  async patch(path: string, patch: Record<string, unknown>): Promise<RepoView> {
    const saved = await this.writer.run((files) => {
      const r = this.load();
      const existing = this.find(path);
      if (!existing) throw new JigError('repo_unknown', { path });
      const next: Record<string, unknown> = { ...existing, managed: true };
      for (const [k, v] of Object.entries(patch)) {
        if (k === 'path')
          throw new JigError('validation_failed', {
            reason: "body.path: a repo's path cannot change; connect the new path instead",
          });
        const key = k === 'default_chain_template' ? 'default_chain' : k;
        if (key === 'default_chain' && typeof v === 'string' && this.chains)
          requireKnownChain(this.chains, v);
        if (v === null) delete next[key];
        else next[key] = v;
      }
      const checked = RepoEntry.safeParse(next);
      if (!checked.success) {
        throw new JigError('validation_failed', {
          reason: checked.error.issues.map((i) => `body.${i.path.join('.')}: ${i.message}`).join('; '),
        });
      }
      if (checked.data.sandbox?.network && checked.data.sandbox.unrestricted_network !== undefined) {
        throw new JigError('validation_failed', {
          reason: 'body.sandbox: set either network or unrestricted_network, not both',
        });
      }
      // Saved, an unknown name would refuse every new item of the repo: refused here, file untouched.
      const unknown = (checked.data.steering ?? []).filter(
        (n) => this.chains?.steeringDefined?.(n) === false,
      );
      if (Object.hasOwn(patch, 'steering') && unknown.length > 0) {
        throw new JigError('repo_steering_invalid', { path: existing.path, names: unknown.join(', ') });
      }
      writeRepoEntry(files, this.configDir, r.doc, existing.path, checked.data);
      return checked.data;
    });
    return view(saved, await countOpenForRepo(this.store.db, saved.path));
  }

  disconnect(path: string): Promise<void> {
    // One operation of the config writer, the count of open items included: no other change of
    // repos.yaml lands between this read and its write.
    return this.writer.run(async (files) => {
      const r = this.load();
      const existing = this.find(path);
      if (!existing) throw new JigError('repo_unknown', { path });
      const open = await openItemsForRepo(this.store.db, existing.path);
      if (open.length > 0) {
        // Named, so a person knows which to end without searching the board; a long list is cut short.
        const shown = open.slice(0, SHOWN_OPEN).map((o) => `${o.id} (${o.status})`);
        const more = open.length > SHOWN_OPEN ? ` and ${open.length - SHOWN_OPEN} more` : '';
        throw new JigError(
          'repo_has_open_items',
          { count: open.length, path: existing.path, items: `${shown.join(', ')}${more}` },
          { open_items: open.length },
        );
      }
      writeRepoEntry(files, this.configDir, r.doc, existing.path, null);
    });
  }
}

function absolute(p: string): string {
  return isAbsolute(p) ? resolve(p) : resolve(process.cwd(), p);
}

function canonical(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return existsSync(p) ? p : resolve(p);
  }
}
