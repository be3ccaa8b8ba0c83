import { LineCounter, isAlias, isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import type { Problem } from '../../contract/problems.js';
import { TextMemo } from './text-memo.js';

/*
 * A YAML document as a tree that remembers, for every key and value, where it was written (file,
 * line, col) and which layer wrote it. Extends-merging builds new trees out of pieces of several
 * files, so positions must travel with the values rather than be looked up in one document.
 */

export interface Pos {
  line: number;
  col: number;
}
/** Which file and which layer (`chain`, `library:tasks.implementer`, ...) wrote a value. */
export interface Origin {
  file: string;
  source: string;
}
export interface AEntry {
  key: string;
  keyPos: Pos;
  value: ANode;
  origin: Origin;
}
export type ANode =
  | { t: 'map'; entries: AEntry[]; origin: Origin; pos: Pos }
  | { t: 'seq'; items: ANode[]; origin: Origin; pos: Pos }
  | { t: 'scalar'; value: unknown; origin: Origin; pos: Pos };
export type AMap = Extract<ANode, { t: 'map' }>;

export interface ParsedYaml {
  /** The file's tree; an empty map for an empty file; null when the text does not parse. */
  tree: ANode | null;
  /** Syntax errors (and "not a mapping"), each at its line and column. */
  problems: Problem[];
}

const START: Pos = { line: 1, col: 1 };

/**
 * A library of a few hundred chain files fits; the key is the whole text, so an edit is a miss.
 * Only trees are kept, not yaml's Documents, which are several times their size and which no
 * caller reads.
 */
const parsedTrees = new TextMemo<ParsedYaml>(512);

const treeKey = (text: string, file: string, source: string): string => `${file}\u0000${source}\u0000${text}`;

export function parseYamlTree(text: string, file: string, source: string): ParsedYaml {
  return parsedTrees.get(treeKey(text, file, source), () => parseTree(text, file, source));
}

/** A text and what it parsed to, as the build keeps them for the seeded config (seeded-trees.ts). */
export interface KnownTree {
  text: string;
  file: string;
  source: string;
  parsed: ParsedYaml;
}

/** What was parsed so far (the build records the seeded config's trees with it). */
export function rememberedTrees(): KnownTree[] {
  return [...parsedTrees.entries()].map(([key, parsed]) => {
    const [file = '', source = '', ...rest] = key.split('\u0000');
    return { text: rest.join('\u0000'), file, source, parsed };
  });
}

/** Takes trees parsed before (by the build, from the same code): their texts are not parsed again. */
export function rememberTrees(known: readonly KnownTree[]): void {
  for (const k of known) parsedTrees.get(treeKey(k.text, k.file, k.source), () => k.parsed);
}

function parseTree(text: string, file: string, source: string): ParsedYaml {
  const lc = new LineCounter();
  // prettyErrors gives each error its line and column (the message's first line is kept).
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: true, uniqueKeys: true });
  const origin: Origin = { file, source };
  if (doc.errors.length > 0) {
    return {
      tree: null,
      problems: doc.errors.map((e) => ({
        path: '',
        field: null,
        message:
          (e.message.split('\n')[0] ?? e.message).replace(/ at line \d+, column \d+:?$/, '') +
          quoteHint(e.code, text, e.linePos?.[0]?.line),
        file,
        line: e.linePos?.[0]?.line ?? null,
        col: e.linePos?.[0]?.col ?? null,
      })),
    };
  }
  const at = (offset: number | undefined): Pos => (offset === undefined ? START : lc.linePos(offset));
  const convert = (node: unknown): ANode => {
    if (isAlias(node)) return convert(node.resolve(doc));
    const n = node as Node | null;
    const pos = at(n?.range?.[0]);
    if (isMap(n)) {
      const entries: AEntry[] = [];
      for (const pair of n.items) {
        const k = pair.key as Node | null;
        const key = isScalar(k) ? String(k.value) : String(k);
        entries.push({ key, keyPos: at(k?.range?.[0]), value: convert(pair.value), origin });
      }
      return { t: 'map', entries, origin, pos };
    }
    if (isSeq(n)) return { t: 'seq', items: n.items.map(convert), origin, pos };
    if (isScalar(n)) return { t: 'scalar', value: n.value, origin, pos };
    return { t: 'scalar', value: null, origin, pos };
  };
  if (doc.contents === null) return { tree: emptyMap(origin), problems: [] };
  const tree = convert(doc.contents);
  if (tree.t !== 'map') {
    return {
      tree: null,
      problems: [
        { path: '', field: null, message: 'the file must be a mapping of keys', file, line: 1, col: 1 },
      ],
    };
  }
  return { tree, problems: [] };
}

/**
 * YAML's "nested mappings" error is what an unquoted `run: echo a: b` gives (the second `: ` starts
 * a mapping); it does not say the fix, which is to quote the value. Named with the key and its value.
 */
function quoteHint(code: string, text: string, line: number | undefined): string {
  if (code !== 'BLOCK_AS_IMPLICIT_KEY' || line === undefined) return '';
  const m = /^\s*(?:-\s+)?([A-Za-z_][\w-]*):\s+(.*\S)\s*$/.exec(text.split(/\r?\n/)[line - 1] ?? '');
  const key = m?.[1];
  const value = m?.[2];
  if (key === undefined || value === undefined) return '';
  const quoted = value.includes("'") ? JSON.stringify(value) : `'${value}'`;
  return `; the value of \`${key}:\` holds ": ", so quote it: ${key}: ${quoted}`;
}

export function emptyMap(origin: Origin, pos: Pos = START): AMap {
  return { t: 'map', entries: [], origin, pos };
}

/** The plain value, as `yaml`'s toJS would give it. */
export function toPlain(node: ANode): unknown {
  if (node.t === 'scalar') return node.value;
  if (node.t === 'seq') return node.items.map(toPlain);
  // As own properties, `__proto__` too (an assignment would set the prototype and drop the key).
  return Object.fromEntries(node.entries.map((e) => [e.key, toPlain(e.value)]));
}

export function entry(node: ANode | undefined, key: string): AEntry | undefined {
  return node?.t === 'map' ? node.entries.find((e) => e.key === key) : undefined;
}
export function child(node: ANode | undefined, seg: string | number): ANode | undefined {
  if (!node) return undefined;
  if (typeof seg === 'number') return node.t === 'seq' ? node.items[seg] : undefined;
  return entry(node, seg)?.value;
}
export function scalar(node: ANode | undefined): unknown {
  return node?.t === 'scalar' ? node.value : undefined;
}

/** Copies a tree, giving every piece a new origin (library components get their own layer label). */
export function withOrigin(node: ANode, origin: Origin): ANode {
  if (node.t === 'scalar') return { ...node, origin };
  if (node.t === 'seq') return { ...node, origin, items: node.items.map((i) => withOrigin(i, origin)) };
  return {
    ...node,
    origin,
    entries: node.entries.map((e) => ({ ...e, origin, value: withOrigin(e.value, origin) })),
  };
}

export type PathSeg = string | number;
export type Where = { file: string; line: number; col: number };

/**
 * Where to point for a problem at `path`: the key itself (`key`), its value (`value`), or, for
 * something missing, the nearest existing place (the key of the mapping that lacks it).
 */
export function locate(root: ANode, path: readonly PathSeg[], mode: 'key' | 'value'): Where {
  let node: ANode = root;
  let keyAt: { pos: Pos; origin: Origin } | null = null;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i]!;
    if (typeof seg === 'number' && node.t === 'seq' && node.items[seg]) {
      node = node.items[seg];
      keyAt = null;
      continue;
    }
    const e = typeof seg === 'string' ? entry(node, seg) : undefined;
    if (!e) break;
    if (i === path.length - 1 && mode === 'key') return { file: e.origin.file, ...e.keyPos };
    node = e.value;
    keyAt = { pos: e.keyPos, origin: e.origin };
    if (i === path.length - 1) {
      // A null value has no place of its own worth pointing at: point at its key.
      if (node.t === 'scalar' && node.value === null) return { file: keyAt.origin.file, ...keyAt.pos };
      return { file: node.origin.file, ...node.pos };
    }
  }
  if (keyAt) return { file: keyAt.origin.file, ...keyAt.pos };
  return { file: node.origin.file, ...node.pos };
}
