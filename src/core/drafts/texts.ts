import type { ConfigTexts } from '../config/validate-set.js';
import { parse } from 'yaml';
import { parseYamlTree } from '../config/tree.js';
import { TextMemo } from '../config/text-memo.js';
import { own } from '../json/own.js';

const CHAIN_FILE = /^chains\/([^/]+)\.yaml$/;

/** The settings and library files a draft can hold, and where a config set keeps each one's text. */
const SET_FIELDS = {
  'library.yaml': 'library',
  'harnesses.yaml': 'harnesses',
  'policy.yaml': 'policy',
  'repos.yaml': 'repos',
  'intake.yaml': 'intake',
} as const satisfies Record<string, keyof ConfigTexts>;

const setField = (file: string) => Object.entries(SET_FIELDS).find(([f]) => f === file)?.[1];

/** The config set's texts with a draft's files laid over (a null file is one the draft deletes). */
export function textsWithDraft(published: ConfigTexts, files: Record<string, string | null>): ConfigTexts {
  const out: ConfigTexts = { ...published, chains: { ...published.chains } };
  for (const [file, text] of Object.entries(files)) {
    const chain = CHAIN_FILE.exec(file)?.[1];
    const field = setField(file);
    if (chain !== undefined) {
      if (text === null) delete out.chains[chain];
      else out.chains[chain] = text;
    } else if (field !== undefined) {
      out[field] = text;
    } else {
      // Only the files of the draft areas can be in a draft (contract/drafts/areas.ts).
      throw new Error(`${file} is not a file a draft can hold`);
    }
  }
  return out;
}

/** The text of one draft-able file in a config set (null when the set has none). */
export function textOf(texts: ConfigTexts, file: string): string | null {
  const chain = CHAIN_FILE.exec(file)?.[1];
  // The chain id comes from a request: `constructor` must not find Object.prototype's.
  if (chain !== undefined) return own(texts.chains, chain) ?? null;
  const field = setField(file);
  return field === undefined ? null : (texts[field] ?? null);
}

const plainParses = new TextMemo<{ ok: true; value: unknown } | { ok: false }>(512);

/**
 * What a file's text parses to as plain YAML (a missing file is null), or that it does not parse.
 * The value is shared with other callers of the same text: copy it before changing it.
 */
export function parseText(text: string | null): { ok: true; value: unknown } | { ok: false } {
  if (text === null) return { ok: true, value: null };
  return plainParses.get(text, () => parsePlain(text));
}

function parsePlain(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    const value: unknown = parse(text);
    return { ok: true, value };
  } catch {
    return { ok: false };
  }
}

/** What a text parses to, or null when it does not parse. */
export function parsedOrNull(text: string | null): unknown {
  const r = parseText(text);
  return r.ok ? r.value : null;
}

/** Where a draft file's YAML stops parsing (the result's `yaml_error`), or null when it parses. */
export interface YamlError {
  file: string;
  line: number | null;
  col: number | null;
  message: string;
}

/** The first draft file, by name, whose text does not parse as YAML. */
export function firstYamlError(files: Record<string, string | null>): YamlError | null {
  for (const file of Object.keys(files).sort()) {
    const text = files[file];
    if (text === null || text === undefined) continue;
    const parsed = parseYamlTree(text, file, 'draft');
    const first = parsed.problems[0];
    if (parsed.tree === null && first)
      return { file, line: first.line, col: first.col, message: first.message };
  }
  return null;
}

/**
 * The file a chains draft's `rename` moved its chain to: a chain file of the draft, other than the
 * key's own, that holds text (the key's own is then deleted). Null when the chain was not moved.
 */
export function movedChainFile(key: string, files: Record<string, string | null>): string | null {
  const own = `chains/${key}.yaml`;
  return Object.keys(files).find((f) => CHAIN_FILE.test(f) && f !== own && files[f] != null) ?? null;
}
