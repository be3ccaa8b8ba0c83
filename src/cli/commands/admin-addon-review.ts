import type { AddonContentItem, AddonProblem, AddonReview } from '../../contract/addon-review.js';
import { ApiError } from '../../client/http.js';
import { EXIT_FAIL, runVerb } from '../output.js';
import { confirm } from '../confirm.js';

/*
 * What the add-on verbs share: the review as a person reads it before an install or update
 * (ADR 0020: `-y` skips the question, never the review), the question, and the refusals.
 */

/** `file:line: message`, or `file: message` when the problem has no line. */
export const problemText = (p: AddonProblem): string =>
  `${p.file}${p.line === null ? '' : `:${p.line}`}: ${p.message}`;

/** A problem as `validate` and the review print it: `error: file:line: message`. */
export const problemLine = (p: AddonProblem): string => `error: ${problemText(p)}`;

/**
 * Control characters (an escape sequence can erase or recolour what was printed before it, a
 * carriage return overwrite a line) and bidirectional overrides (which reorder what is shown) made
 * visible: the review must show on a terminal exactly what an agent would read.
 */
const HIDING = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
export const shownPlain = (text: string): string =>
  text.replace(HIDING, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, '0')}`
      : `\\u${code.toString(16).padStart(4, '0')}`;
  });

const indent = (text: string, by = '    '): string[] =>
  text
    .replace(/\n+$/, '')
    .split('\n')
    .map((l) => (l === '' ? '' : `${by}${l}`));

/** The header: what is installed or updated, from where, under which namespace. */
export function reviewHeader(r: AddonReview): string {
  const from = `from ${r.collection}${r.commit ? ` at ${r.commit.slice(0, 12)}` : ''}`;
  const change = `${r.addon} ${r.from?.version ?? '?'} → ${r.to.version} ${from}`;
  const as = r.namespace === r.addon ? '' : ` as ${r.namespace}`;
  switch (r.action) {
    case 'install':
      return `Install ${r.addon} ${r.to.version} ${from} as ${r.namespace}`;
    case 'update':
      return `Update ${change}${as}`;
    case 'downgrade':
      return `Downgrade ${change}${as}`;
    case 'none':
      return `${r.namespace} is at ${r.to.version}, as ${r.collection} has it: nothing to update`;
  }
}

function contentItem(c: AddonContentItem, update: boolean): string[] {
  const title = `${c.kind} · ${c.where} · ${c.file}`;
  if (c.change === 'removed') return [`  - removed ${title}`];
  if (c.change === 'changed' && c.diff !== null)
    return [`  changed ${title}:`, ...indent(c.diff.replace(/^=+\n/, ''))];
  return [`  ${update ? 'new ' : ''}${title}:`, ...indent(c.text)];
}

/**
 * The whole review: header, Reach (for an update, lines added marked `+`, removed `-`), Content
 * (every prompt, steering text and skill in full; for an update each changed one as its diff, new
 * ones in full, removed ones named, and how many are unchanged), then the problems.
 */
export function formatReview(r: AddonReview): string {
  if (r.action === 'none') return shownPlain(`${reviewHeader(r)}\n`);
  const update = r.action !== 'install';
  const out = [reviewHeader(r), ''];
  out.push('Reach:');
  if (!update) out.push(...(r.reach.lines.length ? r.reach.lines.map((l) => `  ${l}`) : ['  (none)']));
  else {
    const added = new Set(r.reach.added);
    const lines = [
      ...r.reach.lines.map((l) => `${added.has(l) ? '+' : ' '} ${l}`),
      ...r.reach.removed.map((l) => `- ${l}`),
    ];
    out.push(...(lines.length ? lines : ['  (none)']));
  }
  out.push('', 'Content:');
  if (r.content.length === 0 && r.unchanged === 0) out.push('  (none)');
  for (const c of r.content) out.push(...contentItem(c, update));
  if (update) out.push(`  ${r.unchanged} unchanged`);
  if (r.problems.length > 0) {
    out.push('', `Problems (it cannot be ${update ? 'applied' : 'installed'} here):`);
    out.push(...r.problems.map((p) => `  ${problemLine(p)}`));
  }
  return shownPlain(`${out.join('\n')}\n`);
}

/**
 * Whether to go on after the printed review: yes with `-y`; else asked on a terminal; with no
 * terminal, refused (a pipe cannot answer, and installing unread is what `-y` says on purpose).
 */
export async function approved(question: string, yes: boolean | undefined, what: string): Promise<boolean> {
  if (yes) return true;
  if (process.stdin.isTTY !== true) {
    process.stderr.write(
      `jig: ${what}: there is no terminal to ask on; read the review and pass -y to apply it\n`,
    );
    return false;
  }
  const ok = await confirm(question);
  if (!ok) process.stderr.write(`jig: ${what}: not applied\n`);
  return ok;
}

/**
 * runVerb for the add-on verbs: a refusal of the server for the state things are in (409: the
 * namespace is taken, the add-on is in use; 422: it cannot be read or installed here) is the thing
 * asked about not being well, exit 1, not a usage error. The message is the server's.
 */
export function runAddonVerb(fn: () => Promise<number>): Promise<void> {
  return runVerb(async () => {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof ApiError && (err.status === 409 || err.status === 422)) {
        process.stderr.write(
          `jig: ${err.message} (HTTP ${err.status}${err.body.code ? `, ${err.body.code}` : ''})\n`,
        );
        return EXIT_FAIL;
      }
      throw err;
    }
  });
}
