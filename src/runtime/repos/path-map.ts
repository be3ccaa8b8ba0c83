import { sep } from 'node:path';

/** One `--repo-map FROM=TO`: a repo the server knows at FROM is checked out at TO on this worker. */
export interface PathMapping {
  from: string;
  to: string;
}

/**
 * Reads `FROM=TO` pairs (`--repo-map`, repeatable, or JIG_REPO_MAP with pairs split by `,`). Both
 * sides are absolute paths; a malformed pair is refused with what was given.
 */
export function parsePathMap(pairs: readonly string[]): PathMapping[] {
  return pairs.map((pair) => {
    const at = pair.indexOf('=');
    const from = at > 0 ? pair.slice(0, at).trim().replace(/\/+$/, '') : '';
    const to =
      at > 0
        ? pair
            .slice(at + 1)
            .trim()
            .replace(/\/+$/, '')
        : '';
    if (!from.startsWith('/') || !to.startsWith('/'))
      throw new Error(`--repo-map takes FROM=TO with two absolute paths (got ${JSON.stringify(pair)})`);
    return { from, to };
  });
}

/** The path on this machine: the longest FROM that is the path or a folder above it is replaced. */
export function mapPath(map: readonly PathMapping[], path: string): string {
  let best: PathMapping | null = null;
  for (const m of map) {
    const under = path === m.from || path.startsWith(m.from + sep);
    if (under && (best === null || m.from.length > best.from.length)) best = m;
  }
  return best ? best.to + path.slice(best.from.length) : path;
}

/**
 * The reverse: a path on this machine as the server knows it (the longest TO above it replaced by
 * its FROM). Records other processes read (merge requests, waits) keep the server's path.
 */
export function unmapPath(map: readonly PathMapping[], path: string): string {
  let best: PathMapping | null = null;
  for (const m of map) {
    const under = path === m.to || path.startsWith(m.to + sep);
    if (under && (best === null || m.to.length > best.to.length)) best = m;
  }
  return best ? best.from + path.slice(best.to.length) : path;
}
