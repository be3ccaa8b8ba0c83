import { RESERVED_SEGMENTS } from '../../contract/config/ids.js';
import type { Problem } from '../../contract/problems.js';
import type { Report } from './report.js';
import type { Visit } from './walk.js';

const RESERVED = new Set<string>(RESERVED_SEGMENTS);

/**
 * Ids are path segments: none may be a reserved segment (except a judge called `judge`, the slot's
 * own name) and siblings must differ, which makes every canonical path unique.
 */
export function checkIds(visits: readonly Visit[], report: Report): Problem[] {
  const out: Problem[] = [];
  const seen = new Map<string, Visit>();
  for (const v of visits) {
    if (v.synthetic || v.slot === 'auto_review') continue;
    const id = v.value.id;
    if (typeof id !== 'string') continue;
    if (RESERVED.has(id) && !(v.slot === 'judge' && id === 'judge')) {
      out.push(
        report(
          [...v.dataPath, 'id'],
          `\`${id}\` is reserved (a segment of canonical paths) and cannot be an id`,
        ),
      );
      continue;
    }
    if (v.slot) continue;
    // Siblings share a parent and a container (node list, step list, task list of one step).
    const container = v.dataPath.slice(0, -1).join('/');
    const key = `${container}#${id}`;
    const first = seen.get(key);
    if (first) {
      out.push(report([...v.dataPath, 'id'], `duplicate id \`${id}\`: ids must be unique among siblings`));
    } else seen.set(key, v);
  }
  return out;
}
