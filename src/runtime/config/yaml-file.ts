import { isMap, parseDocument, type Document } from 'yaml';
import type { Problem } from '../../contract/problems.js';
import { readConfigFile } from '../fs/config-text.js';

export type YamlRead =
  { ok: true; doc: Document; text: string } | { ok: false; problems: Problem[]; missing: boolean };

/** Reads one config file as a YAML mapping, with every syntax error at its line and column. */
export function readYamlMapping(path: string, file: string): YamlRead {
  const read = readConfigFile(path);
  if (!read.ok) {
    return {
      ok: false,
      missing: read.missing,
      problems: [
        {
          path: '',
          field: null,
          message: read.missing ? 'file is missing' : `the file ${read.reason}`,
          file,
          line: null,
          col: null,
        },
      ],
    };
  }
  const text = read.text;
  // prettyErrors computes each error's line and column; the code frame it adds is cut below.
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return {
      ok: false,
      missing: false,
      problems: doc.errors.map((e) => ({
        path: '',
        field: null,
        message: (e.message.split('\n')[0] ?? e.message).replace(/ at line \d+, column \d+:?$/, ''),
        file,
        line: e.linePos?.[0]?.line ?? null,
        col: e.linePos?.[0]?.col ?? null,
      })),
    };
  }
  if (doc.contents !== null && !isMap(doc.contents)) {
    return {
      ok: false,
      missing: false,
      problems: [
        { path: '', field: null, message: 'the file must be a mapping of keys', file, line: 1, col: 1 },
      ],
    };
  }
  return { ok: true, doc, text };
}
