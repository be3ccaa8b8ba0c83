import {
  agentShape,
  builtinShape,
  forgeShape,
  subprocessShape,
  taskFieldsShape,
} from '../../contract/config/task.js';
import type { KeyHint } from '../config/validate-tree.js';
import type { PathSeg } from '../config/tree.js';

/*
 * Better words than "unknown key" for keys that exist elsewhere in the chain model: a key of
 * another task kind, `read_only` on a task, a nested handler, a gate key on an exec node, and the
 * retired wait timeouts.
 */

const KIND_KEYS: Record<string, readonly string[]> = {
  agent: Object.keys(agentShape),
  subprocess: Object.keys(subprocessShape),
  builtin: Object.keys(builtinShape),
  forge: Object.keys(forgeShape),
};
const TASK_KEYS = new Set(Object.keys(taskFieldsShape));
/** Node keys only a gate takes, and only an exec node takes (also what `change_base` drops). */
export const GATE_ONLY: readonly string[] = [
  'message',
  'artifact',
  'artifact_required',
  'reject_to',
  'timeout',
  'auto_review',
  'chain_finalized',
];
export const EXEC_ONLY: readonly string[] = [
  'tasks',
  'steps',
  'on_failure',
  'fix_loop',
  'escalation',
  'on_base_changed',
  'read_only',
  'icon',
];
const HANDLERS = new Set(['on_failure', 'fix_loop', 'on_conflict']);

type What = 'task' | 'step' | 'node' | 'other';

/** What kind of component the object at a data path is (chain files and library.yaml). */
export function componentAt(path: readonly PathSeg[], library: boolean): What {
  const last = path[path.length - 1];
  const prev = path[path.length - 2];
  if (library && path.length === 2) {
    return prev === 'tasks' ? 'task' : prev === 'steps' ? 'step' : prev === 'nodes' ? 'node' : 'other';
  }
  if (typeof last === 'number') {
    if (prev === 'tasks') return 'task';
    if (prev === 'steps') return 'step';
    if (prev === 'nodes') return 'node';
  }
  if (last === 'judge' || last === 'escalation' || last === 'auto_review') return 'task';
  return 'other';
}

function valueAt(data: unknown, path: readonly PathSeg[]): Record<string, unknown> | undefined {
  let v = data;
  for (const seg of path) v = v && typeof v === 'object' ? (v as Record<PathSeg, unknown>)[seg] : undefined;
  return v && typeof v === 'object' ? (v as Record<string, unknown>) : undefined;
}

export function chainKeyHint(library: boolean) {
  return (data: unknown, objectPath: readonly PathSeg[], key: string): KeyHint | undefined => {
    const what = componentAt(objectPath, library);
    const inHandler = objectPath.some((s) => typeof s === 'string' && HANDLERS.has(s));
    const here = valueAt(data, objectPath);
    if (key === 'on_failure' && inHandler) {
      return {
        message:
          'handlers cannot nest: a step or task inside on_failure, fix_loop or on_conflict takes no on_failure',
      };
    }
    if (what === 'task') {
      if (key === 'read_only')
        return { message: '`read_only` cannot be set on a task: set it on the step that holds the task' };
      if (key === 'wait_timeout_minutes') {
        return {
          message:
            "`wait_timeout_minutes` is retired: a wait's timeout is its `policy.total_time_cap_minutes`",
        };
      }
      // The names other CI and task runners use, said in ours.
      if (key === 'type')
        return {
          message:
            'unknown key `type`: a task says what it is with `kind:` (agent, subprocess, builtin, forge)',
        };
      if (key === 'cmd' || key === 'script')
        return {
          message: `unknown key \`${key}\`: a subprocess task runs \`run:\` (one shell line) or \`argv:\` (a list, no shell)`,
        };
      const kind = typeof here?.kind === 'string' ? here.kind : undefined;
      if (kind && TASK_KEYS.has(key)) {
        const owner = Object.entries(KIND_KEYS).find(([, keys]) => keys.includes(key))?.[0];
        if (owner && owner !== kind)
          return { message: `\`${key}\` belongs to ${owner} tasks, not to a ${kind} task` };
      }
    }
    if (what === 'step' && key === 'read_only' && inHandler) {
      return { message: 'a step inside on_failure, fix_loop or on_conflict cannot be read_only' };
    }
    if (objectPath[objectPath.length - 1] === 'wait' && key === 'timeout') {
      return {
        message: "`wait.timeout` is retired: a wait's timeout is its `policy.total_time_cap_minutes`",
      };
    }
    if (what === 'node') {
      if (here?.kind === 'gate' && EXEC_ONLY.includes(key)) {
        return {
          message:
            key === 'icon' ? 'a gate takes no icon' : `\`${key}\` belongs to exec nodes, not to a gate`,
        };
      }
      if (here?.kind === 'exec' && GATE_ONLY.includes(key))
        return { message: `\`${key}\` belongs to gate nodes, not to an exec node` };
    }
    return undefined;
  };
}
