import type { PolicyFile } from '../../../contract/config/policy.js';
import type { ChainLoad } from '../../chain/load-chain.js';
import { fixLoopKeys, loopLimits, type Sourced } from '../../policy/loops.js';
import { isObj, type Obj } from '../ops/context.js';
import type { PolicyValue } from './policy-limits.js';

/*
 * The `loops` group of the policy draft's resolved answer: the `default:` block, the `loops:`
 * entries, and every fix loop of the library's chains with the limits it runs under and the layer
 * that set each (the engine's own layering, `loopLimits`).
 */

export interface LoopEntry {
  key: string;
  /** The entry's own value, else the `default:` block's (source `default`). */
  attempts: PolicyValue<number>;
  wall_clock_s: PolicyValue<number>;
  /** Whether a chain of the library has this fix loop. */
  live: boolean;
}

export interface LiveLoop {
  key: string;
  chain: string;
  node: string;
  /** `source` is the winning layer: loop, node, chain, defaults, maxima, loops or default. */
  attempts: Sourced<number>;
  wall_clock_s: Sourced<number>;
}

export interface PolicyLoops {
  default: { attempts: PolicyValue<number>; wall_clock_s: PolicyValue<number> };
  entries: LoopEntry[];
  live: LiveLoop[];
}

const FIX_LOOP = '.fix_loop';

/** `raw` is the file as written, to tell a written value from one the schema filled in. */
export function policyLoops(policy: PolicyFile, raw: Obj, chains: readonly ChainLoad[]): PolicyLoops {
  const block = isObj(raw.default) ? raw.default : {};
  const dflt = {
    attempts: {
      value: policy.default.attempts,
      source: block.attempts === undefined ? 'default' : 'policy',
    },
    wall_clock_s: {
      value: policy.default.wall_clock_s,
      source: block.wall_clock_s === undefined ? 'default' : 'policy',
    },
  } satisfies PolicyLoops['default'];
  const live: LiveLoop[] = [];
  for (const c of chains) {
    if (!c.checked) continue;
    for (const key of fixLoopKeys([c.checked])) {
      const node = key.slice(0, -FIX_LOOP.length);
      const limits = loopLimits(c.checked, node, policy);
      if (limits)
        live.push({ key, chain: c.id, node, attempts: limits.attempts, wall_clock_s: limits.wall_clock_s });
    }
  }
  const liveKeys = new Set(live.map((l) => l.key));
  const entries = Object.entries(policy.loops).map(([key, e]): LoopEntry => ({
    key,
    attempts:
      e.attempts === undefined
        ? { value: dflt.attempts.value, source: 'default' }
        : { value: e.attempts, source: 'policy' },
    wall_clock_s:
      e.wall_clock_s === undefined
        ? { value: dflt.wall_clock_s.value, source: 'default' }
        : { value: e.wall_clock_s, source: 'policy' },
    live: liveKeys.has(key),
  }));
  return { default: dflt, entries, live };
}
