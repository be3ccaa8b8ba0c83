import { asStarted, type StartedItem } from '../../src/runtime/engine/started-item.js';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import type { PolicyFile } from '../../src/contract/config/policy.js';
import type { RepoEntry } from '../../src/contract/config/repos.js';
import type { StopKind } from '../../src/contract/item-status.js';
import type { Walk } from '../../src/contract/walk.js';
import { loadChain } from '../../src/core/chain/load-chain.js';
import { loadLibrary } from '../../src/core/chain/load-library.js';
import type { ModelExecNode, ModelTask, ResolvedChain } from '../../src/core/chain/model.js';
import { clockAt, firstWalk } from '../../src/core/chain/walk-state.js';
import { ManualClock } from '../../src/runtime/clock.js';
import type { NodeCtx, NodeHost } from '../../src/runtime/engine/node-moves.js';
import { WallClocks } from '../../src/runtime/engine/wall-clock.js';
import { EventLog } from '../../src/runtime/events/event-log.js';
import { openStore, type Store } from '../../src/store/database.js';
import { readEvents } from '../../src/store/events.js';
import { insertSession, NO_AGENT, type SessionRecord, type SessionStatus } from '../../src/store/sessions.js';
import { getItem, insertItem, updateItem } from '../../src/store/work-items.js';

/*
 * A step host with no server and no processes, for unit tests of the node runner and the fix loop:
 * a real store on a temp SQLite file, a real event log, a ManualClock and the real wall-clock check,
 * and launches that answer canned sessions (written to the store as a real launch writes them, so
 * the code that reads sessions back finds them).
 */

/** How a canned launch ends: its session's status and result file, or (an agent) a refusal. */
export interface Canned {
  status: SessionStatus;
  result?: Record<string, unknown>;
  note?: string;
}
export type CannedAgent = Canned | { refuse: { stop: StopKind; reason: string } };

export interface Launch {
  task: string;
  node: string;
  argv: string[] | null;
  capS: number | null;
  brief: string | undefined;
}

const T0 = Date.parse('2026-03-02T09:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const silent = pino({ level: 'silent' });

export interface Bench {
  store: Store;
  events: EventLog;
  clock: ManualClock;
  host: NodeHost;
  chain: ResolvedChain;
  node: ModelExecNode;
  repo: RepoEntry;
  id: string;
  /** The context the fix loop's phases take. */
  ctx: NodeCtx;
  /** Every launch, in the order they were made. */
  launches: Launch[];
  /** Items the wall-clock stop asked to end the sessions of. */
  ended: string[];
  /** Queues the outcomes of the next launches of a task. */
  script(task: string, ...outcomes: CannedAgent[]): void;
  /** Runs inside each launch, before its session is written (a pause mid-step, a move of the clock). */
  onLaunch: ((task: string) => Promise<void> | void) | null;
  /** A session of the task that already ended as given, as if it had run (a measurement's past). */
  finished(task: string, outcome: Canned): Promise<SessionRecord>;
  item(): Promise<StartedItem>;
  walk(): Promise<Walk>;
  setWalk(fn: (w: Walk) => Walk): Promise<void>;
  /** The item's events as recorded: type, node, actor and payload. */
  recorded(): Promise<{ type: string; node: string | null; by: string; payload: unknown }[]>;
  close(): Promise<void>;
}

/**
 * An item running the first node of `chainYaml`, at its first entry; `policy` is its frozen policy
 * (null: none, the built-in defaults), `override` its policy_override.
 */
export async function bench(
  chainYaml: string,
  opts: { policy?: PolicyFile | null; override?: Record<string, unknown> } = {},
): Promise<Bench> {
  const lib = loadLibrary(null);
  const loaded = loadChain('c', chainYaml, { library: lib.index, resolver: lib.resolver });
  if (!loaded.resolved) throw new Error(`the chain does not load: ${JSON.stringify(loaded.problems)}`);
  const chain = loaded.resolved;
  const node = chain.nodes[0];
  if (node?.kind !== 'exec') throw new Error('the first node must be an exec node');

  const dir = mkdtempSync(join(tmpdir(), 'jig-step-host-'));
  const worktree = join(dir, 'worktree');
  mkdirSync(worktree);
  const store = await openStore(join(dir, 'jig.db'));
  const events = new EventLog(store);
  await events.init();
  const clock = new ManualClock(T0);
  const id = 'w1';
  const policy = opts.policy ?? null;
  const start = firstWalk(clock.now());
  await insertItem(store.db, {
    id,
    title: 'unit',
    description: '',
    status: 'running',
    chain: 'c',
    repo: dir,
    branch: 'jig/w1',
    base_branch: 'main',
    base_ref: null,
    source: 'human',
    attachments: {},
    agent_overrides: {},
    node_overrides: {},
    policy_override: opts.override ?? {},
    skip_nodes: [],
    auto_gate: null,
    budget_usd: null,
    spent_usd: 0,
    spent_tokens: 0,
    chain_definition: chain,
    policy_snapshot: policy,
    current_node: node.id,
    stop_kind: null,
    stop_reason: null,
    suggested_action: null,
    worktree_path: worktree,
    created_at: iso(T0),
    updated_at: iso(T0),
    started_at: iso(T0),
    ended_at: null,
    archived_at: null,
    walk: { ...start, entry: 1, node_clock: clockAt(start, clock.now()) },
    steer: null,
    queued_at: null,
    workspace: null,
    run_epoch: 0,
    gate_request: null,
    state_error: null,
  });

  const queues = new Map<string, CannedAgent[]>();
  const launches: Launch[] = [];
  const ended: string[] = [];
  let seq = 0;

  const write = async (task: ModelTask, nodeId: string, argv: string[], capS: number | null, c: Canned) => {
    // A second apart, so the sessions read back in the order they ran.
    await clock.advance(1000);
    const sid = `s${String(++seq).padStart(4, '0')}`;
    const s: SessionRecord = {
      id: sid,
      work_item_id: id,
      node: nodeId,
      task_path: task.path,
      kind: task.kind,
      status: c.status,
      argv,
      cwd: worktree,
      pid: null,
      pid_start: null,
      log_path: join(dir, `${sid}.log`),
      result_path: join(dir, `${sid}.json`),
      exit_path: join(dir, `${sid}.exit`),
      exit_code: c.status === 'done' ? 0 : c.status === 'failed' ? 1 : null,
      result: c.result ?? null,
      time_cap_s: capS,
      started_at: iso(clock.now()),
      exited_at: iso(clock.now()),
      ...NO_AGENT,
      note: c.note ?? null,
    };
    await insertSession(store.db, s);
    return s;
  };

  const next = async (
    task: ModelTask,
    nodeId: string,
    argv: string[] | null,
    capS: number | null,
    brief?: string,
  ) => {
    const outcome = queues.get(task.path)?.shift();
    if (!outcome) throw new Error(`unexpected launch of ${task.path}`);
    launches.push({ task: task.path, node: nodeId, argv, capS, brief });
    await b.onLaunch?.(task.path);
    return outcome;
  };

  const clocks = new WallClocks(
    {
      store,
      clock,
      events,
      log: silent,
      config: { policy: null },
    },
    { promote: () => undefined },
    {
      end: async (item) => {
        ended.push(item);
      },
    },
  );

  const host: NodeHost = {
    store,
    clock,
    events,
    commandStub: () => null,
    item: async (x) => asStarted((await getItem(store.db, x))!),
    clockStop: (x) => clocks.stopIfCrossed(x),
    fence: {
      stillRunning: async (x) => (await getItem(store.db, x))?.status === 'running',
      heldIn: async () => true,
    },
    policy: (rec) => rec.policy_snapshot,
    // Items of the scripted host run on one repository.
    members: () => [],
    changed: () => Promise.resolve(true),
    bumpPointers: () => Promise.resolve(null),
    // The scripted host runs no setup command: nothing of it to let go.
    releaseSetupOutput: () => Promise.resolve(),
    launches: {
      forge: () => Promise.reject(new Error('the scripted step host runs no forge tasks')),
      wait: () => Promise.reject(new Error('the scripted step host runs no forge waits')),
      async command({ node: nodeId, task, argv, timeCapS: capS, brief }) {
        const outcome = await next(task, nodeId, argv, capS, brief);
        if ('refuse' in outcome) return outcome;
        return { session: await write(task, nodeId, argv, capS, outcome) };
      },
      async agent({ node: nodeId, task, timeCapS: capS, brief }) {
        const outcome = await next(task, nodeId, null, capS, brief);
        if ('refuse' in outcome) return outcome;
        return { session: await write(task, nodeId, [task.harness ?? 'agent'], capS, outcome) };
      },
    },
  };

  const repo: RepoEntry = { path: dir, test_command: '', setup_command: '' };
  const b: Bench = {
    store,
    events,
    clock,
    host,
    chain,
    node,
    repo,
    id,
    ctx: { h: host, id, chain, node, repo },
    launches,
    ended,
    onLaunch: null,
    script(task, ...outcomes) {
      queues.set(task, [...(queues.get(task) ?? []), ...outcomes]);
    },
    finished(taskPath, outcome) {
      const task = [...node.steps, ...(node.fix_loop?.steps ?? [])]
        .flatMap((s) => s.tasks)
        .find((t) => t.path === taskPath);
      if (!task) throw new Error(`no task ${taskPath} in the node`);
      return write(task, node.id, ['/bin/sh', '-c', 'true'], null, outcome);
    },
    item: () => host.item(id),
    walk: async () => (await host.item(id)).walk,
    async setWalk(fn) {
      await updateItem(store.db, id, { walk: fn((await host.item(id)).walk) });
    },
    async recorded() {
      const all = await readEvents(store.db, { workItemId: id, limit: 1000 });
      return all.map((e) => ({ type: e.type, node: e.node, by: e.by, payload: e.payload }));
    },
    async close() {
      await events.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return b;
}
