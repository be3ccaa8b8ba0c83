import type { ConfigTexts } from '../config/validate-set.js';
import { parseYamlTree } from '../config/tree.js';

const CHAIN_FILE = /^chains\/([^/]+)\.yaml$/;

/** The config set's texts with a draft's files laid over (a null file is one the draft deletes). */
export function textsWithDraft(published: ConfigTexts, files: Record<string, string | null>): ConfigTexts {
  const out: ConfigTexts = { ...published, chains: { ...published.chains } };
  for (const [file, text] of Object.entries(files)) {
    const chain = CHAIN_FILE.exec(file)?.[1];
    if (chain !== undefined) {
      if (text === null) delete out.chains[chain];
      else out.chains[chain] = text;
      continue;
    }
    switch (file) {
      case 'library.yaml':
        out.library = text;
        break;
      case 'harnesses.yaml':
        out.harnesses = text;
        break;
      case 'policy.yaml':
        out.policy = text;
        break;
      case 'repos.yaml':
        out.repos = text;
        break;
      case 'intake.yaml':
        out.intake = text;
        break;
      default:
        // Only the files of the draft areas can be in a draft (contract/drafts/areas.ts).
        throw new Error(`${file} is not a file a draft can hold`);
    }
  }
  return out;
}

/** The text of one draft-able file in a config set (null when the set has none). */
export function textOf(texts: ConfigTexts, file: string): string | null {
  const chain = CHAIN_FILE.exec(file)?.[1];
  if (chain !== undefined) return texts.chains[chain] ?? null;
  const settings: Record<string, string | null | undefined> = {
    'library.yaml': texts.library,
    'harnesses.yaml': texts.harnesses,
    'policy.yaml': texts.policy,
    'repos.yaml': texts.repos,
    'intake.yaml': texts.intake,
  };
  return settings[file] ?? null;
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
