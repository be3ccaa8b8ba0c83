import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { JigClient } from '../../client/http.js';
import { worktreeOf, type Worktree } from '../../client/view-items.js';
import { EXIT_FAIL, EXIT_OK, EXIT_USAGE, printJson, runVerb } from '../output.js';
import { editorFor, runEditor } from './repo-editor.js';
import { itemFor } from './view-target.js';

/** The item's worktree on this machine, or a line saying why there is none (printed by the caller). */
async function worktree(c: JigClient, id: string): Promise<Worktree | string> {
  const w = await worktreeOf(c, id);
  if (!w) return `item ${id} has no worktree yet (one is cut when it starts: jig item resume ${id})`;
  if (w.reclaimed)
    return `the worktree of item ${id} was removed (archived or abandoned); its branch was ${w.branch}`;
  if (!existsSync(w.path)) return `${w.path} (the worktree of item ${id}) is not on this machine`;
  return w;
}

/** `jig repo path` (also `cd`). */
export function repoPath(
  given: string | undefined,
  opts: { shell?: boolean; json?: boolean },
): Promise<void> {
  return runVerb(async () => {
    const c = new JigClient();
    const id = await itemFor(c, 'repo path', given);
    if (!id) return EXIT_USAGE;
    const w = await worktree(c, id);
    if (typeof w === 'string') {
      process.stderr.write(`jig: ${w}\n`);
      return EXIT_FAIL;
    }
    if (opts.shell) {
      const shell = process.env.SHELL?.trim() || '/bin/sh';
      process.stderr.write(`jig: a shell in ${w.path}; exit it to come back\n`);
      return new Promise<number>((resolve) => {
        const p = spawn(shell, [], { cwd: w.path, stdio: 'inherit' });
        p.on('error', (err) => {
          process.stderr.write(`jig: ${shell} could not start: ${err.message}\n`);
          resolve(EXIT_FAIL);
        });
        p.on('exit', (code) => resolve(code ?? EXIT_FAIL));
      });
    }
    if (opts.json) printJson({ id, path: w.path, branch: w.branch, base_ref: w.base_ref });
    else process.stdout.write(`${w.path}\n`);
    return EXIT_OK;
  });
}

/** `jig repo open`. */
export function repoOpen(
  given: string | undefined,
  opts: { editor?: string; json?: boolean },
): Promise<void> {
  return runVerb(async () => {
    const c = new JigClient();
    const id = await itemFor(c, 'repo open', given);
    if (!id) return EXIT_USAGE;
    const w = await worktree(c, id);
    if (typeof w === 'string') {
      process.stderr.write(`jig: ${w}\n`);
      return EXIT_FAIL;
    }
    const editor = editorFor(opts.editor, 'folder');
    const r = await runEditor(editor, w.path);
    if ('error' in r) {
      process.stderr.write(`jig: ${r.error}\n`);
      return EXIT_FAIL;
    }
    if (r.code !== 0) {
      process.stderr.write(`jig: ${editor} exited ${r.code}\n`);
      return EXIT_FAIL;
    }
    if (opts.json) printJson({ id, path: w.path, editor });
    else process.stdout.write(`opened ${w.path} in ${editor}\n`);
    return EXIT_OK;
  });
}
