import type { RepoEntry } from '../../contract/config/repos.js';
import { JigError } from '../../contract/errors.js';
import type { ModelAgentTask } from '../../core/chain/model.js';
import type { ItemRecord } from '../../store/work-items.js';
import { launchForge } from './forge-launch.js';
import { policyOf, type EngineResources } from './resources.js';
import type { Launched, TaskLaunch, TaskLaunches, WaitLaunch } from './step-runner.js';
import type { ImmediateForge } from './task-spec.js';
import type { Waits } from './waits.js';

/**
 * How a step's tasks start, for real: a command or an agent through the workers, a forge action on
 * the item's merge request, an external wait through the waits. Each runs in the item's worktree,
 * or in its member's for a fanned-out run.
 */
export class Launches implements TaskLaunches {
  constructor(
    private readonly r: EngineResources,
    private readonly waits: Pick<Waits, 'start'>,
  ) {}

  private repoOf(rec: ItemRecord): RepoEntry {
    const repo = this.r.repos.find(rec.repo);
    if (!repo) throw new JigError('repo_not_connected', { path: rec.repo });
    return repo;
  }

  private cwdOf(rec: ItemRecord): string {
    if (rec.worktree_path === null) throw new Error(`work item ${rec.id} has no worktree`);
    return rec.worktree_path;
  }

  async command({
    rec,
    node,
    task,
    argv,
    timeCapS,
    brief,
    member,
  }: TaskLaunch & { argv: string[] }): Promise<Launched> {
    const repo = member?.repo ?? this.repoOf(rec);
    const jail = this.r.workers.jail(rec, repo, task.path, 'runtime');
    if (!jail.ok) return { refuse: { stop: 'config', reason: `${task.path}: ${jail.reason}` } };
    const session = await this.r.workers.runCommand({
      rec,
      repo,
      node,
      taskPath: task.path,
      kind: task.kind,
      argv,
      cwd: member?.cwd ?? this.cwdOf(rec),
      timeCapS,
      ...(brief !== undefined ? { brief } : {}),
      ...(member ? { member: member.name } : {}),
      sandbox: jail.sandbox,
    });
    return { session };
  }

  async agent({ rec, node, task, timeCapS, brief, member }: TaskLaunch<ModelAgentTask>): Promise<Launched> {
    if (rec.chain_definition === null) throw new Error(`work item ${rec.id} has no frozen chain`);
    const out = await this.r.workers.runAgent({
      rec,
      repo: member?.repo ?? this.repoOf(rec),
      chain: rec.chain_definition,
      policy: policyOf(this.r, rec),
      node,
      task,
      timeCapS,
      ...(brief !== undefined ? { brief } : {}),
      ...(member ? { member: { name: member.name, cwd: member.cwd } } : {}),
    });
    if (out.kind === 'session') return { session: out.session };
    return {
      refuse: { stop: out.stop, reason: out.reason, ...(out.session ? { session: out.session.id } : {}) },
    };
  }

  forge(req: TaskLaunch & { target: ImmediateForge }): Promise<Launched> {
    return launchForge(this.r, this.repoOf(req.rec), req);
  }

  wait(req: WaitLaunch): Promise<Launched | { waiting: true }> {
    return this.waits.start(this.repoOf(req.rec), req);
  }
}
