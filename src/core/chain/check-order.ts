import type { Problem } from '../../contract/problems.js';
import { didYouMean } from '../config/suggest.js';
import type { Report } from './report.js';
import type { Obj, Visit } from './walk.js';

const FINAL_ONLY = new Set(['mr.mark_ready', 'mr.merge']);

/**
 * Rules about order in the chain: a rejection or restart goes back to an exec node (earlier, or
 * the same node for restart_from); a gate reviews a document an earlier node produced; one final
 * gate at most, which requires its document, and nothing marks ready or merges before it.
 */
export function checkOrder(visits: readonly Visit[], report: Report): Problem[] {
  const out: Problem[] = [];
  const nodes = visits.filter((v) => v.kind === 'node');
  const ids = nodes.map((n) => String(n.value.id));
  const indexOf = new Map(nodes.map((n, i) => [String(n.value.id), i]));

  const target = (from: Visit, field: string[], name: unknown, allowSelf: boolean): void => {
    if (typeof name !== 'string') return;
    const at = [...from.dataPath, ...field];
    const fieldName = field.join('.');
    const i = indexOf.get(name);
    if (i === undefined) {
      out.push(report(at, `${fieldName} \`${name}\`: no node has that id${didYouMean(name, ids)}`));
      return;
    }
    const t = nodes[i]!;
    if (t.value.kind !== 'exec') {
      out.push(report(at, `${fieldName} \`${name}\` must name an exec node; \`${name}\` is a gate`));
    } else if (i > from.nodeIndex || (i === from.nodeIndex && !allowSelf)) {
      const rel = allowSelf
        ? 'this node or an earlier exec node'
        : `an exec node before this ${from.value.kind === 'gate' ? 'gate' : 'node'}`;
      out.push(
        report(
          at,
          `${fieldName} \`${name}\` must name ${rel}; \`${name}\` comes ${i === from.nodeIndex ? 'here' : 'later'}`,
        ),
      );
    }
  };

  const produced = new Set<string>();
  let finalized: Visit | null = null;
  const finalOnly: Visit[] = [];
  for (const n of nodes) {
    const x = n.value;
    if (x.kind === 'gate') {
      target(n, ['reject_to'], x.reject_to, false);
      if (typeof x.artifact === 'string' && !produced.has(x.artifact)) {
        out.push(
          report(
            [...n.dataPath, 'artifact'],
            `artifact \`${x.artifact}\`: no node before this gate produces it (a task with \`produces: ${x.artifact}\`)`,
          ),
        );
      }
      if (x.artifact_required === true && x.artifact === undefined) {
        out.push(
          report([...n.dataPath, 'artifact_required'], 'artifact_required needs an `artifact`', 'key'),
        );
      }
      if (x.chain_finalized === true) {
        if (finalized) {
          out.push(
            report(
              [...n.dataPath, 'chain_finalized'],
              `only one gate can be chain_finalized; \`${String(finalized.value.id)}\` already is`,
              'key',
            ),
          );
        } else {
          finalized = n;
          if (x.artifact === undefined) {
            out.push(
              report(
                [...n.dataPath, 'chain_finalized'],
                'a chain_finalized gate needs an `artifact`: its document is always required',
                'key',
              ),
            );
          }
          for (const t of finalOnly) {
            out.push(
              report(
                [...t.dataPath, 'target'],
                `\`${String(t.value.target)}\` runs before the chain_finalized gate \`${String(x.id)}\``,
              ),
            );
          }
        }
      }
      continue;
    }
    target(
      n,
      ['on_base_changed', 'restart_from'],
      (x.on_base_changed as Obj | undefined)?.restart_from,
      true,
    );
    for (const t of visits) {
      if (t.kind !== 'task' || t.nodeIndex !== n.nodeIndex) continue;
      if (typeof t.value.produces === 'string') produced.add(t.value.produces);
      if (!finalized && t.value.kind === 'forge' && FINAL_ONLY.has(String(t.value.target))) finalOnly.push(t);
    }
  }
  return out;
}
