import { stringify } from 'yaml';
import { JigClient } from '../../client/http.js';
import {
  defaultConfigDir,
  getResolvedChain,
  isDirectory,
  lintConfigDir,
  listChains,
} from '../../client/templates.js';
import type { Problem } from '../../contract/problems.js';
import { getLibrary, getLibraryComponent } from '../../contract/routes/templates.js';
import { describeFiles } from '../config-files.js';
import { EXIT_FAIL, EXIT_OK, EXIT_USAGE, printJson, runVerb } from '../output.js';
import { outputStyle, table } from '../table.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;
const list = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);

/** `file:line:col: message`, the file named relative to the config directory (as `jig admin reload` does). */
const line = (p: Problem): string => `${p.file}:${p.line ?? 1}:${p.col ?? 1}: ${p.message}`;

/** Every task of a resolved node, in chain order: steps, handlers, then slots. */
function tasksOf(node: Obj): Obj[] {
  const out: Obj[] = [];
  const plan = (holder: Obj | undefined): void => {
    for (const step of list(holder?.steps))
      for (const t of list(step.tasks)) {
        out.push(t);
        plan(obj(t.on_failure));
      }
  };
  plan(node);
  plan(obj(node.on_failure));
  const loop = obj(node.fix_loop);
  plan(loop);
  for (const t of [obj(loop?.judge), obj(node.escalation), obj(node.auto_review)]) if (t) out.push(t);
  plan(obj(obj(node.on_base_changed)?.on_conflict));
  return out;
}

/** Nodes and their tasks by canonical path, one per line. */
function outline(resolved: Obj): string[] {
  const rows: [string, string, string][] = [];
  for (const n of list(resolved.nodes)) {
    const about =
      typeof n.description === 'string' ? n.description : typeof n.message === 'string' ? n.message : '';
    rows.push([String(n.path), String(n.kind), about]);
    for (const t of tasksOf(n)) {
      const via = typeof t.extends === 'string' ? `extends ${t.extends}` : '';
      rows.push([`  ${String(t.path)}`, String(t.kind), via]);
    }
  }
  const w = Math.max(...rows.map((r) => r[0].length));
  return rows.map(([a, b, c]) => `${a.padEnd(w)}  ${b.padEnd(10)}  ${c}`.trimEnd());
}

/** `jig admin templates lint`. */
export function templatesLint(opts: { dir?: string; json?: boolean }): Promise<void> {
  return runVerb(async () => {
    const dir = opts.dir ?? defaultConfigDir();
    if (!isDirectory(dir)) {
      process.stderr.write(`jig: no config directory at ${dir}\n`);
      return EXIT_USAGE;
    }
    const r = lintConfigDir(dir);
    if (opts.json) printJson(r);
    else {
      const out = [
        ...r.problems.map((p) => line(p)),
        ...r.warnings.map((p) => line({ ...p, message: `warning: ${p.message}` })),
      ];
      if (out.length > 0) process.stdout.write(`${out.join('\n')}\n`);
      process.stderr.write(
        `checked ${r.files.length} files in ${dir} (${describeFiles(r.files)}): ${r.problems.length} problem(s), ${r.warnings.length} warning(s)\n`,
      );
    }
    return r.problems.length === 0 ? EXIT_OK : EXIT_FAIL;
  });
}

/** `jig admin templates show`. */
export function templatesShow(id: string, opts: { resolved?: boolean; json?: boolean }): Promise<void> {
  return runVerb(async () => {
    const client = new JigClient();
    const entry = (await listChains(client)).chains.find((c) => c.id === id);
    if (!entry) {
      process.stderr.write(`jig: no chain ${id}\n`);
      return EXIT_USAGE;
    }
    if (!entry.resolves) {
      if (opts.json) printJson(entry);
      else
        process.stdout.write(
          `${[`${id} does not resolve:`, ...entry.problems.map((p) => line(p))].join('\n')}\n`,
        );
      return EXIT_FAIL;
    }
    const read = await getResolvedChain(client, id);
    if (!read.ok) {
      if (opts.json) printJson({ detail: read.detail, problems: read.problems });
      else
        process.stdout.write(
          `${[`${id} does not resolve:`, ...read.problems.map((p) => line(p))].join('\n')}\n`,
        );
      return EXIT_FAIL;
    }
    if (opts.json) printJson(opts.resolved ? read.chain : entry);
    else if (opts.resolved) process.stdout.write(stringify(read.chain.resolved));
    else {
      const head = [
        `${id}: ${entry.description ?? '(no description)'}`,
        `${entry.nodes} nodes (${entry.gates} gates) · ${entry.running ? 'running' : 'not running: reload to run it'}`,
      ];
      process.stdout.write(`${[...head, '', ...outline(read.chain.resolved)].join('\n')}\n`);
    }
    return EXIT_OK;
  });
}

/** `jig admin templates list`. */
export function templatesList(opts: { json?: boolean }): Promise<void> {
  return runVerb(async () => {
    const r = await listChains(new JigClient());
    if (opts.json) printJson(r);
    else {
      const style = outputStyle();
      process.stdout.write(
        table(
          style,
          ['CHAIN', 'NODES', 'GATES', 'STATE', 'DESCRIPTION'],
          r.chains.map((c) => [
            c.id,
            String(c.nodes),
            String(c.gates),
            c.resolves
              ? { text: c.running ? 'ok' : 'not running', colour: c.running ? null : 'yellow' }
              : { text: `${c.problems.length} problem(s)`, colour: 'red' },
            c.description ?? '',
          ]),
        ),
      );
    }
    return r.chains.every((c) => c.resolves) ? EXIT_OK : EXIT_FAIL;
  });
}

/** `jig admin templates library`. */
export function templatesLibrary(ref: string | undefined, opts: { json?: boolean }): Promise<void> {
  return runVerb(async () => {
    const client = new JigClient();
    if (ref !== undefined) {
      const res = await client.send(getLibraryComponent, { params: { ref } });
      if (res.status === 404) {
        process.stderr.write(`jig: ${res.body.detail}\n`);
        return EXIT_USAGE;
      }
      if (opts.json) printJson(res.body);
      else process.stdout.write(stringify({ [res.body.ref]: res.body.written }));
      return res.body.problems.length === 0 ? EXIT_OK : EXIT_FAIL;
    }
    const lib = await client.call(getLibrary);
    if (opts.json) printJson(lib);
    else {
      const style = outputStyle();
      process.stdout.write(
        table(
          style,
          ['COMPONENT', 'USED BY', 'PROBLEMS'],
          lib.components.map((c) => [
            c.ref,
            [...c.used_by.chains, ...c.used_by.repos].join(', '),
            c.problems.length === 0 ? '' : { text: String(c.problems.length), colour: 'red' },
          ]),
        ),
      );
      for (const p of lib.problems) process.stderr.write(`${line(p)}\n`);
    }
    return lib.problems.length === 0 ? EXIT_OK : EXIT_FAIL;
  });
}
