import type { Problem } from '../../contract/problems.js';
import type { Report } from './report.js';
import type { Obj, Visit } from './walk.js';

const obj = (v: unknown): Obj | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;

/** One of `tasks` or `steps`, never both, never neither (exec nodes and every handler plan). */
function planForm(
  holder: Obj,
  dataPath: readonly (string | number)[],
  what: string,
  report: Report,
): Problem[] {
  const hasTasks = holder.tasks !== undefined;
  const hasSteps = holder.steps !== undefined;
  if (hasTasks && hasSteps)
    return [report([...dataPath, 'steps'], `${what} takes \`tasks\` or \`steps\`, not both`, 'key')];
  if (!hasTasks && !hasSteps) return [report([...dataPath], `${what} needs \`tasks\` or \`steps\``, 'key')];
  return [];
}

/**
 * Shape rules the schema cannot say: tasks-or-steps, read_only placement, profile vs
 * model/effort, run vs argv, auto_review without fallback, loop limits on exec nodes only, and
 * one document kind per node.
 */
export function checkShape(visits: readonly Visit[], report: Report): Problem[] {
  const out: Problem[] = [];
  for (const v of visits) {
    const x = v.value;
    const policy = obj(x.policy);
    if (v.kind === 'node' && x.kind === 'exec') {
      out.push(...planForm(x, v.dataPath, 'an exec node', report));
      for (const h of ['on_failure', 'fix_loop'] as const) {
        const p = obj(x[h]);
        if (p)
          out.push(
            ...planForm(p, [...v.dataPath, h], h === 'fix_loop' ? 'a fix loop' : 'a recovery plan', report),
          );
      }
      const conflict = obj(obj(x.on_base_changed)?.on_conflict);
      if (conflict)
        out.push(
          ...planForm(conflict, [...v.dataPath, 'on_base_changed', 'on_conflict'], 'on_conflict', report),
        );
      if (x.read_only === true && x.fix_loop) {
        out.push(
          report(
            [...v.dataPath, 'read_only'],
            'a node with a fix_loop cannot be read_only: its repairs change the worktree',
            'key',
          ),
        );
      }
      const kinds = new Map<string, string>();
      for (const t of visits) {
        if (t.kind !== 'task' || t.nodeIndex !== v.nodeIndex || t.handler || t.slot) continue;
        if (typeof t.value.produces === 'string' && !kinds.has(t.value.produces)) {
          if (kinds.size > 0) {
            out.push(
              report(
                [...t.dataPath, 'produces'],
                `a node produces one document kind; \`${[...kinds.keys()][0]}\` is already produced here`,
              ),
            );
          }
          kinds.set(t.value.produces, t.path);
        }
      }
    }
    // Loop limits belong to exec nodes (and the chain), where fix loops live.
    if (policy && !(v.kind === 'node' && x.kind === 'exec')) {
      for (const k of ['max_attempts', 'timeout_minutes']) {
        if (policy[k] !== undefined) {
          out.push(
            report(
              [...v.dataPath, 'policy', k],
              `\`policy.${k}\` applies to exec nodes (and the chain) only`,
              'key',
            ),
          );
        }
      }
    }
    if (v.kind !== 'task') continue;
    if (x.profile !== undefined && (x.model !== undefined || x.effort !== undefined)) {
      const k = x.model !== undefined ? 'model' : 'effort';
      out.push(report([...v.dataPath, k], 'set `profile` or `model`/`effort`, not both', 'key'));
    }
    if (Array.isArray(x.fallback)) {
      x.fallback.forEach((f, i) => {
        const e = obj(f);
        if (e && e.profile !== undefined && (e.model !== undefined || e.effort !== undefined)) {
          out.push(
            report(
              [...v.dataPath, 'fallback', i, e.model !== undefined ? 'model' : 'effort'],
              'set `profile` or `model`/`effort`, not both',
              'key',
            ),
          );
        }
      });
    }
    if (x.kind === 'subprocess') {
      const set = (['run', 'argv', 'command'] as const).filter((k) => x[k] !== undefined);
      if (set.length === 0) {
        out.push(
          report(
            [...v.dataPath, 'kind'],
            'a subprocess task needs `run` (a shell line) or `argv` (a program and its arguments, no shell)',
          ),
        );
      } else if (set.length > 1) {
        const second = set[1]!;
        const msg = set.includes('command')
          ? '`command` is the older form of `run`/`argv`: keep one of them'
          : 'set `run` (a shell line) or `argv` (no shell), not both';
        out.push(report([...v.dataPath, second], msg, 'key'));
      }
    }
    if (v.slot === 'auto_review' && x.fallback !== undefined) {
      out.push(report([...v.dataPath, 'fallback'], 'an auto_review task cannot take a fallback', 'key'));
    }
  }
  return out;
}
