import { spawn } from 'node:child_process';
import { JigClient } from '../../client/http.js';
import { compareAll, type CompareArgs } from '../../client/review.js';
import type { DiffFile, ItemDiff } from '../../contract/review.js';
import { EXIT_OK, EXIT_USAGE, printJson, runVerb } from '../output.js';
import { outputStyle, paint, type Style } from '../table.js';
import { itemFor } from './view-target.js';

/*
 * `view diff` and `view compare`: an item's changes as the server computes them (never a local git
 * of a worktree that may be on another machine), as a patch, a diffstat or names.
 */

interface DiffOpts {
  stat?: boolean;
  nameOnly?: boolean;
  ignoreAllSpace?: boolean;
  pager?: boolean;
  json?: boolean;
  from?: string;
  to?: string;
  nodes?: string;
}

function colourLine(style: Style, line: string): string {
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('diff --git'))
    return paint(style, 'bold', line);
  if (line.startsWith('@@')) return paint(style, 'cyan', line);
  if (line.startsWith('+')) return paint(style, 'green', line);
  if (line.startsWith('-')) return paint(style, 'red', line);
  return line;
}

function patchText(style: Style, f: DiffFile): string {
  if (f.binary) return paint(style, 'bold', `Binary file ${f.path} ${f.status}\n`);
  if (f.truncated)
    return paint(
      style,
      'yellow',
      `${f.path}: ${f.additions ?? 0}+ ${f.deletions ?? 0}- lines, too large to show here\n`,
    );
  if (!f.patch) return '';
  return f.patch
    .split('\n')
    .map((l) => colourLine(style, l))
    .join('\n');
}

/** A diffstat the way git draws one: the path, the count, and a bar of +/- scaled to the widest. */
export function statText(style: Style, d: ItemDiff, width = 40): string {
  const name = (f: DiffFile) => (f.old_path ? `${f.old_path} => ${f.path}` : f.path);
  const wide = Math.max(0, ...d.files.map((f) => name(f).length));
  const most = Math.max(1, ...d.files.map((f) => (f.additions ?? 0) + (f.deletions ?? 0)));
  const scale = most > width ? width / most : 1;
  const lines = d.files.map((f) => {
    if (f.binary) return ` ${name(f).padEnd(wide)} | Bin`;
    const n = (f.additions ?? 0) + (f.deletions ?? 0);
    const plus = '+'.repeat(Math.round((f.additions ?? 0) * scale));
    const minus = '-'.repeat(Math.round((f.deletions ?? 0) * scale));
    return ` ${name(f).padEnd(wide)} | ${String(n).padStart(4)} ${paint(style, 'green', plus)}${paint(style, 'red', minus)}`;
  });
  const t = d.totals;
  const summary = ` ${t.files} file${t.files === 1 ? '' : 's'} changed, ${t.additions} insertion${t.additions === 1 ? '' : 's'}(+), ${t.deletions} deletion${t.deletions === 1 ? '' : 's'}(-)`;
  return `${[...lines, summary].join('\n')}\n`;
}

/** Writes through $PAGER (less -FRX) on a terminal, so a long diff scrolls; straight out otherwise. */
function out(text: string, paged: boolean): Promise<void> {
  if (!paged) {
    process.stdout.write(text);
    return Promise.resolve();
  }
  const pager = process.env.PAGER?.trim() || 'less -FRX';
  const [exe, ...args] = pager.split(/\s+/);
  return new Promise((resolve) => {
    const p = spawn(exe ?? 'less', args, { stdio: ['pipe', 'inherit', 'inherit'] });
    p.on('error', () => {
      process.stdout.write(text);
      resolve();
    });
    p.on('close', () => resolve());
    p.stdin.on('error', () => undefined);
    p.stdin.end(text);
  });
}

async function show(verb: string, given: string | undefined, o: DiffOpts, a: CompareArgs): Promise<number> {
  if (o.stat && o.nameOnly) {
    process.stderr.write(`jig: ${verb} takes --stat or --name-only, not both\n`);
    return EXIT_USAGE;
  }
  const c = new JigClient();
  const id = await itemFor(c, verb, given);
  if (!id) return EXIT_USAGE;
  const format = o.nameOnly ? 'name_only' : o.stat ? 'stat' : 'patch';
  const d = await compareAll(c, id, { ...a, format, ignoreWhitespace: o.ignoreAllSpace });
  if (o.json) {
    printJson(d);
    return EXIT_OK;
  }
  const style = outputStyle();
  if (d.files.length === 0) {
    process.stdout.write(`no changes between ${d.from.target} and ${d.to.target}\n`);
    return EXIT_OK;
  }
  const text =
    format === 'name_only'
      ? d.files.map((f) => `${f.path}\n`).join('')
      : format === 'stat'
        ? statText(style, d)
        : d.files.map((f) => patchText(style, f)).join('');
  await out(text, format === 'patch' && style.tty && o.pager !== false);
  return EXIT_OK;
}

/** `jig view diff`. */
export function viewDiff(given: string | undefined, o: DiffOpts): Promise<void> {
  return runVerb(() => show('view diff', given, o, { from: 'base', to: 'latest' }));
}

/** `jig view compare`. */
export function viewCompare(given: string | undefined, o: DiffOpts): Promise<void> {
  return runVerb(() => show('view compare', given, o, { from: o.from, to: o.to, nodes: o.nodes }));
}
