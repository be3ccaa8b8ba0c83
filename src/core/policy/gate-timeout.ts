import type { PolicyFile } from '../../contract/config/policy.js';
import type { Problem } from '../../contract/problems.js';
import { reporter } from '../chain/report.js';
import { walkChain } from '../chain/walk.js';
import type { ANode } from '../config/tree.js';

const UNIT_MINUTES: Record<string, number> = { s: 1 / 60, m: 1, h: 60, d: 1440 };

/** Minutes of a duration (`30s`, `90m`, `2h`, `7d`); null when it is not one. */
export function durationMinutes(d: string): number | null {
  const m = /^([1-9][0-9]*)(s|m|h|d)$/.exec(d);
  return m ? Number(m[1]) * UNIT_MINUTES[m[2]!]! : null;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
const obj = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/**
 * A gate's `timeout` is at most the surrounding `total_time_cap_minutes` (the item's wall clock,
 * waits and gates included): past it the cap stops the item first and the timeout never fires.
 * Past a bound that holds for every item of the chain (the gate's own policy, the chain's policy,
 * `maxima.work_item`) it is a problem; past only `defaults.work_item`, which an item's own
 * policy may raise up to the maxima, it is a warning.
 */
export function gateTimeoutChecks(
  chain: { id: string; checked: unknown; tree: ANode },
  policy: PolicyFile | null,
): { problems: Problem[]; warnings: Problem[] } {
  const report = reporter(chain.checked, chain.tree);
  const problems: Problem[] = [];
  const warnings: Problem[] = [];
  const chainCap = num(obj(obj(chain.checked)?.policy)?.total_time_cap_minutes);
  const maxCap = policy?.maxima?.work_item?.total_time_cap_minutes;
  const dfltCap = policy?.defaults?.work_item?.total_time_cap_minutes;
  for (const v of walkChain(chain.checked)) {
    if (v.kind !== 'node' || v.value.kind !== 'gate' || typeof v.value.timeout !== 'string') continue;
    const minutes = durationMinutes(v.value.timeout);
    if (minutes === null) continue;
    const certain: { value: number; what: string }[] = [];
    const own = num(obj(v.value.policy)?.total_time_cap_minutes);
    if (own !== undefined) certain.push({ value: own, what: "the gate's own policy" });
    if (chainCap !== undefined) certain.push({ value: chainCap, what: "the chain's policy" });
    if (maxCap !== undefined) certain.push({ value: maxCap, what: 'policy.yaml maxima.work_item' });
    const bound = certain.reduce<(typeof certain)[number] | null>(
      (m, b) => (m === null || b.value < m.value ? b : m),
      null,
    );
    const say = (cap: number, what: string, tail: string) =>
      report(
        [...v.dataPath, 'timeout'],
        `chain \`${chain.id}\`: gate timeout \`${v.value.timeout as string}\` (${+minutes.toFixed(2)} minutes) exceeds total_time_cap_minutes ${cap} of ${what}${tail}`,
      );
    if (bound && minutes > bound.value) {
      problems.push(say(bound.value, bound.what, '; the cap stops the item before the timeout fires'));
    } else if (chainCap === undefined && own === undefined && dfltCap !== undefined && minutes > dfltCap) {
      warnings.push(
        say(
          dfltCap,
          'policy.yaml defaults.work_item',
          '; unless an item raises that default (within maxima), the cap stops the item before the timeout fires',
        ),
      );
    }
  }
  return { problems, warnings };
}
