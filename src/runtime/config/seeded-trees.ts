import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rememberTrees, type ANode, type KnownTree } from '../../core/config/tree.js';
import { packageRoot } from '../package-root.js';

/*
 * A fresh home is seeded with the package's config files, and every start parses them before it
 * can answer: parsing YAML (with the position of every key) was about a twentieth of a start's CPU.
 * The build parses those texts with the same code and keeps the trees (scripts/seeded-trees.mjs);
 * a start takes them, so a file still as it was seeded is not parsed again. Any other text, an
 * edited file included, misses and is parsed as before: the key is the whole text.
 */

/** Where the build writes them. */
export const SEEDED_TREES_FILE = join(packageRoot, 'dist', 'seeded-trees.json');

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isPos = (v: unknown): boolean => isRecord(v) && typeof v.line === 'number' && typeof v.col === 'number';
const isOrigin = (v: unknown): boolean =>
  isRecord(v) && typeof v.file === 'string' && typeof v.source === 'string';

/** A tree as parseTree builds it (checked whole: a file of ours, but read from disk). */
function isNode(v: unknown): v is ANode {
  if (!isRecord(v) || !isPos(v.pos) || !isOrigin(v.origin)) return false;
  if (v.t === 'scalar') return 'value' in v;
  if (v.t === 'seq') return Array.isArray(v.items) && v.items.every(isNode);
  if (v.t !== 'map' || !Array.isArray(v.entries)) return false;
  return v.entries.every(
    (e: unknown) =>
      isRecord(e) && typeof e.key === 'string' && isPos(e.keyPos) && isOrigin(e.origin) && isNode(e.value),
  );
}

/** The file's trees; none when it is missing or not what the build writes. */
export function readSeededTrees(path: string = SEEDED_TREES_FILE): KnownTree[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return [];
  }
  if (!Array.isArray(raw)) return [];
  const out: KnownTree[] = [];
  for (const k of raw) {
    if (!isRecord(k) || typeof k.text !== 'string' || typeof k.file !== 'string') continue;
    if (typeof k.source !== 'string' || !isNode(k.tree)) continue;
    out.push({ text: k.text, file: k.file, source: k.source, parsed: { tree: k.tree, problems: [] } });
  }
  return out;
}

let taken = false;

/**
 * Once per process, before the first load. Only the built package has them: run from src/ (tests,
 * benchmarks under tsx), the parser may have changed since the build wrote them.
 */
export function takeSeededTrees(): void {
  if (taken || !import.meta.url.includes('/dist/')) return;
  taken = true;
  rememberTrees(readSeededTrees());
}
