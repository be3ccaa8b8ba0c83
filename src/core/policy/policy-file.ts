import { POLICY_LEVELS, type PolicyFile } from '../../contract/config/policy.js';
import { CAP_KEYS } from '../../contract/config/scope-policy.js';
import type { Problem } from '../../contract/problems.js';
import { locate, type ANode, type PathSeg } from '../config/tree.js';
import { checkSandbox } from '../sandbox/check.js';
import type { KeyHint } from '../config/validate-tree.js';

const CAPS = new Set<string>(CAP_KEYS);

/** The 1.x flat form (`defaults: {budget_usd: 5}`) is refused with the nested spelling to use. */
export function policyKeyHint(
  _data: unknown,
  objectPath: readonly PathSeg[],
  key: string,
): KeyHint | undefined {
  const block = objectPath[0];
  if (objectPath.length === 1 && (block === 'defaults' || block === 'maxima') && CAPS.has(key)) {
    return {
      message: `caps go under a level: \`${block}.<level>.${key}\` with <level> one of ${POLICY_LEVELS.join(', ')}; the flat form is refused`,
    };
  }
  return undefined;
}

function problem(tree: ANode, file: string, path: PathSeg[], message: string): Problem {
  return {
    path: path.slice(0, -1).join('.'),
    field: String(path[path.length - 1]),
    message,
    ...locate(tree, path, 'value'),
    file,
  };
}

/**
 * Rules of policy.yaml beside its schema: levels nest (tasks ≤ steps ≤ nodes ≤ work_item) in
 * `defaults` and in `maxima`; a default never exceeds its maximum; a default harness is allowed by
 * the maxima.
 */
export function checkPolicyFile(p: PolicyFile, tree: ANode, file: string): Problem[] {
  const out: Problem[] = [];
  for (const block of ['defaults', 'maxima'] as const) {
    const b = p[block];
    if (!b) continue;
    for (const cap of CAP_KEYS) {
      // Compare each level with the nearest broader level that sets the cap.
      let broader: { level: string; value: number } | null = null;
      for (const level of POLICY_LEVELS) {
        const v = b[level]?.[cap];
        if (v === undefined) continue;
        if (broader && v > broader.value) {
          out.push(
            problem(
              tree,
              file,
              [block, level, cap],
              `${block}.${level}.${cap} ${v} exceeds ${block}.${broader.level}.${cap} ${broader.value}: levels nest (tasks ≤ steps ≤ nodes ≤ work_item)`,
            ),
          );
        } else broader = { level, value: v };
      }
    }
  }
  const d = p.defaults;
  const m = p.maxima;
  if (d && m) {
    for (const level of POLICY_LEVELS) {
      for (const cap of CAP_KEYS) {
        const dv = d[level]?.[cap];
        const mv = m[level]?.[cap];
        if (dv !== undefined && mv !== undefined && dv > mv) {
          out.push(
            problem(
              tree,
              file,
              ['defaults', level, cap],
              `defaults.${level}.${cap} ${dv} exceeds maxima.${level}.${cap} ${mv}`,
            ),
          );
        }
      }
    }
    for (const k of ['max_attempts', 'timeout_minutes'] as const) {
      const dv = d[k];
      const mv = m[k];
      if (dv !== undefined && mv !== undefined && dv > mv) {
        out.push(problem(tree, file, ['defaults', k], `defaults.${k} ${dv} exceeds maxima.${k} ${mv}`));
      }
    }
    if (d.allowed_harnesses && m.allowed_harnesses) {
      d.allowed_harnesses.forEach((h, i) => {
        if (!m.allowed_harnesses!.includes(h)) {
          out.push(
            problem(
              tree,
              file,
              ['defaults', 'allowed_harnesses', i],
              `harness \`${h}\` is in defaults.allowed_harnesses but not in maxima.allowed_harnesses`,
            ),
          );
        }
      });
    }
  }
  if (p.sandbox)
    for (const sp of checkSandbox(p.sandbox))
      out.push({
        path: ['sandbox', ...sp.path.slice(0, -1)].join('.'),
        field: String(sp.path[sp.path.length - 1]),
        message: `sandbox: ${sp.message}`,
        ...locate(tree, ['sandbox', ...sp.path], sp.mode),
        file,
      });
  return out;
}
