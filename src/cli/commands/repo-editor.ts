import { spawn } from 'node:child_process';

/** Editors `repo open --editor` names; JIG_EDITOR may name any other command. */
export const EDITORS = ['code', 'cursor', 'zed'] as const;

/**
 * The editor for a folder: `--editor`, else JIG_EDITOR, else `code`. For a document the terminal
 * editor comes first: VISUAL, then EDITOR, then `vi`.
 */
export function editorFor(given: string | undefined, what: 'folder' | 'document'): string {
  const env = (k: string) => process.env[k]?.trim() || undefined;
  return (
    given ?? env('JIG_EDITOR') ?? (what === 'folder' ? 'code' : (env('VISUAL') ?? env('EDITOR') ?? 'vi'))
  );
}

/**
 * Runs the editor on a path and waits for it (a GUI editor's launcher returns at once; a terminal
 * editor keeps the terminal until it quits). The command may carry arguments (`code --wait`).
 * Answers its exit code, or an error message when it could not be started.
 */
export function runEditor(command: string, path: string): Promise<{ code: number } | { error: string }> {
  const [exe, ...args] = command.split(/\s+/).filter(Boolean);
  if (!exe) return Promise.resolve({ error: 'no editor named' });
  return new Promise((resolve) => {
    const p = spawn(exe, [...args, path], { stdio: 'inherit' });
    p.on('error', (err: NodeJS.ErrnoException) =>
      resolve({
        error:
          err.code === 'ENOENT'
            ? `${exe} is not on PATH; pass --editor (${EDITORS.join('|')}) or set JIG_EDITOR`
            : `${exe} could not start: ${err.message}`,
      }),
    );
    p.on('exit', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0) }));
  });
}
