/**
 * Release versions as the npm registry publishes them (SemVer 2.0, build metadata ignored), and the
 * release channels `jig admin update` follows. A channel takes its own dist-tag and every more
 * stable one, so someone on `beta` is offered a stable release that is newer than the last beta.
 */
import { CHANNELS, type Channel } from '../../contract/update.js';

export { CHANNELS, type Channel };

/** The npm dist-tag each channel reads, most stable first. */
export const CHANNEL_TAGS: Record<Channel, string> = {
  stable: 'latest',
  rc: 'rc',
  beta: 'beta',
  alpha: 'alpha',
};

/** The dist-tags a channel follows: its own and each more stable channel's. */
export function tagsOf(channel: Channel): string[] {
  return CHANNELS.slice(0, CHANNELS.indexOf(channel) + 1).map((c) => CHANNEL_TAGS[c]);
}

interface Parsed {
  core: [number, number, number];
  pre: string[];
}

const SEMVER = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

export function parseVersion(v: string): Parsed | null {
  const m = SEMVER.exec(v.trim());
  if (!m) return null;
  return { core: [Number(m[1]), Number(m[2]), Number(m[3])], pre: m[4] ? m[4].split('.') : [] };
}

function comparePre(a: string[], b: string[]): number {
  // A release ranks above any of its pre-releases.
  if (a.length === 0 || b.length === 0) return b.length - a.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const nx = /^\d+$/.test(x);
    const ny = /^\d+$/.test(y);
    if (nx && ny) {
      if (Number(x) !== Number(y)) return Number(x) - Number(y);
    } else if (nx !== ny) return nx ? -1 : 1;
    else if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** Negative when a is older than b, 0 when equal, positive when newer; null when either is not SemVer. */
export function compareVersions(a: string, b: string): number | null {
  const pa = parseVersion(a);
  const pb = parseVersion(b);
  if (!pa || !pb) return null;
  for (let i = 0; i < 3; i++) {
    const d = (pa.core[i] ?? 0) - (pb.core[i] ?? 0);
    if (d !== 0) return d;
  }
  return comparePre(pa.pre, pb.pre);
}

/** The newest version a channel offers from a feed's dist-tags; null when none of its tags is set. */
export function newestOnChannel(distTags: Record<string, string>, channel: Channel): string | null {
  let best: string | null = null;
  for (const tag of tagsOf(channel)) {
    const v = distTags[tag];
    if (v === undefined || parseVersion(v) === null) continue;
    if (best === null || (compareVersions(v, best) ?? 0) > 0) best = v;
  }
  return best;
}
