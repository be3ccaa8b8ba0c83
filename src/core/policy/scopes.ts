import type { PolicyLevel } from '../../contract/config/policy.js';
import type { PathSeg } from '../config/tree.js';
import { walkChain } from '../chain/walk.js';

/** A policy scope of a chain: the chain itself, then every node, step and task (a gate has none). */
export interface Scope {
  path: string;
  kind: 'chain' | 'node' | 'step' | 'task';
  level: PolicyLevel;
  dataPath: PathSeg[];
  policy: Record<string, unknown> | undefined;
  parent: Scope | null;
  /** Task kind, for tasks (agent-only caps). */
  taskKind?: string;
  hasRecovery?: boolean;
}

const LEVEL = { chain: 'work_item', node: 'nodes', step: 'steps', task: 'tasks' } as const;
const obj = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

export function chainScopes(checked: unknown): Scope[] {
  const root: Scope = {
    path: '',
    kind: 'chain',
    level: 'work_item',
    dataPath: [],
    policy: obj(obj(checked)?.policy),
    parent: null,
  };
  const out: Scope[] = [root];
  const byPath = new Map<string, Scope>();
  for (const v of walkChain(checked)) {
    if (v.kind === 'node' && v.value.kind === 'gate') continue;
    if (v.parent && !byPath.has(v.parent.path)) continue; // under a gate (auto_review): no scope
    const parent = v.parent ? byPath.get(v.parent.path)! : root;
    const s: Scope = {
      path: v.path,
      kind: v.kind,
      level: LEVEL[v.kind],
      dataPath: v.synthetic ? [...v.dataPath, '(main)'] : v.dataPath,
      policy: v.synthetic ? undefined : obj(v.value.policy),
      parent,
      ...(v.kind === 'task'
        ? { taskKind: String(v.value.kind), hasRecovery: obj(v.value.on_failure) !== undefined }
        : {}),
    };
    byPath.set(v.path, s);
    out.push(s);
  }
  return out;
}
