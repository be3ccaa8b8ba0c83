import { satisfies } from 'semver';
import { isCollection, isNode, LineCounter, parseDocument } from 'yaml';
import { ADDON_MANIFEST_PATH, AddonManifest } from '../../contract/addons.js';
import type { AddonCheck, AddonFiles, AddonProblem, InstanceFacts } from './types.js';

/** `requires.jig` as a semver range: `2` is any 2.x, `2.4` at least 2.4.0 and below 3.0.0. */
export function jigRange(requires: string): string {
  const [major, minor] = requires.split('.');
  return minor === undefined
    ? `>=${major}.0.0 <${Number(major) + 1}.0.0-0`
    : `>=${major}.${minor}.0 <${Number(major) + 1}.0.0-0`;
}

/** The line of the value at a data path of a JSON/YAML document, else of the nearest parent. */
function lineAt(
  doc: ReturnType<typeof parseDocument>,
  lc: LineCounter,
  path: readonly PropertyKey[],
): number | null {
  let node: unknown = doc.contents;
  const lineOf = (n: unknown): number | null => {
    const r = isNode(n) ? n.range : undefined;
    return r ? lc.linePos(r[0]).line : null;
  };
  let line = lineOf(node);
  for (const seg of path) {
    if (!isCollection(node)) break;
    const next: unknown = node.get(typeof seg === 'number' ? seg : String(seg), true);
    if (next === undefined) break;
    node = next;
    line = lineOf(node) ?? line;
  }
  return line;
}

/** The value at a data path of parsed JSON; undefined when a step is missing. */
function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let v = data;
  for (const seg of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[seg];
  }
  return v;
}

/**
 * The manifest's own checks: JSON that parses, the schema (every rule of the spec's table), and
 * `requires` against the instance when its facts are known. Content checks live in content.ts.
 */
export function checkManifest(
  text: string | null,
  instance: InstanceFacts | null,
): Pick<AddonCheck, 'manifest' | 'problems' | 'skipped'> {
  const file = ADDON_MANIFEST_PATH;
  const problems: AddonProblem[] = [];
  const skipped: string[] = [];
  if (text === null)
    return { manifest: null, problems: [{ file, line: null, message: 'is missing' }], skipped };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    const m = /position (\d+)/.exec((e as Error).message);
    const line = m ? text.slice(0, Number(m[1])).split('\n').length : null;
    return {
      manifest: null,
      problems: [{ file, line, message: `is not JSON: ${(e as Error).message}` }],
      skipped,
    };
  }
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc });
  const parsed = AddonManifest.safeParse(data);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path.map(String).join('.');
      let message = issue.message;
      let at: readonly PropertyKey[] = issue.path;
      if (issue.code === 'unrecognized_keys') {
        // At the (first) key itself, not at the object holding it.
        message = `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `\`${k}\``).join(', ')}`;
        at = [...issue.path, issue.keys[0] ?? ''];
      } else if (
        issue.code === 'invalid_type' &&
        valueAt(data, issue.path) === undefined &&
        !message.startsWith('is required')
      )
        // A key left out is missing, not a value of the wrong kind ("is not an email address").
        message = 'is required';
      problems.push({
        file,
        line: lineAt(doc, lc, at),
        message: `${path === '' ? 'manifest' : `\`${path}\``}: ${message}`,
      });
    }
    return { manifest: null, problems, skipped };
  }
  const m = parsed.data;
  if (instance === null) {
    skipped.push('requires: no Jig home to check it against');
    return { manifest: m, problems, skipped };
  }
  if (!satisfies(instance.version, jigRange(m.requires.jig), { includePrerelease: true }))
    problems.push({
      file,
      line: lineAt(doc, lc, ['requires', 'jig']),
      message: `\`requires.jig\`: needs Jig ${m.requires.jig}, this is ${instance.version}`,
    });
  for (const [key, have] of [
    ['harnesses', instance.harnesses],
    ['profiles', instance.profiles],
  ] as const) {
    const want = m.requires[key] ?? [];
    if (have === null) {
      if (want.length > 0) skipped.push(`requires.${key}: harnesses.yaml could not be read`);
      continue;
    }
    const missing = want.filter((n) => !have.includes(n));
    if (missing.length > 0)
      problems.push({
        file,
        line: lineAt(doc, lc, ['requires', key]),
        message: `\`requires.${key}\`: harnesses.yaml defines no ${missing.map((n) => `\`${n}\``).join(', ')}`,
      });
  }
  return { manifest: m, problems, skipped };
}

/**
 * Every check of an add-on: the manifest, then its content (content.ts). `instance` null: the
 * checks that need a home are listed as skipped (`jig admin addon validate` in CI).
 */
export function checkAddon(files: AddonFiles, instance: InstanceFacts | null): AddonCheck {
  return checkManifest(files.manifest, instance);
}
