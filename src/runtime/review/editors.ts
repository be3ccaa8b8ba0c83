import { spawn } from 'node:child_process';
import { basename } from 'node:path';
import { onPath } from '../on-path.js';
import type { Editor, EditorsAnswer } from '../../contract/editors.js';
import { JigError } from '../../contract/errors.js';

/** The GUI editors looked for on PATH, in the order the default is chosen. */
const KNOWN: readonly { id: string; name: string; exe: string }[] = [
  { id: 'code', name: 'VS Code', exe: 'code' },
  { id: 'cursor', name: 'Cursor', exe: 'cursor' },
  { id: 'zed', name: 'Zed', exe: 'zed' },
];

/**
 * The editors this machine has: VS Code, Cursor and Zed when on the server's PATH, and the one the
 * server's environment names ($JIG_EDITOR, else $VISUAL, else $EDITOR), which comes first when set:
 * the person chose it. Read on each call, so an editor installed later shows without a restart.
 */
export function findEditors(env: NodeJS.ProcessEnv = process.env): EditorsAnswer {
  const editors: Editor[] = [];
  const named = [env.JIG_EDITOR, env.VISUAL, env.EDITOR].map((v) => v?.trim()).find(Boolean);
  const exe = named?.split(/\s+/)[0];
  if (named && exe && onPath(exe, env))
    editors.push({ id: 'env', name: `${basename(exe)} (your editor)`, command: named });
  for (const k of KNOWN) if (onPath(k.exe, env)) editors.push({ id: k.id, name: k.name, command: k.exe });
  return { editors, default: editors[0]?.id ?? null };
}

/**
 * Starts the editor on `path`, detached (it outlives the request and the server), and answers once
 * it started. A terminal editor has no terminal here: it is for GUI editors and `code --wait`-like
 * launchers that return at once.
 */
export async function openInEditor(
  path: string,
  editorId: string | undefined,
): Promise<{ editor: string; path: string }> {
  const found = findEditors();
  const id = editorId ?? found.default;
  const editor = found.editors.find((e) => e.id === id);
  if (!editor) {
    const have = found.editors.map((e) => e.id).join(', ') || 'none';
    throw new JigError('validation_failed', {
      reason: editorId
        ? `body.editor: ${editorId} is not an editor on this machine (found: ${have})`
        : 'no editor found on this machine: install VS Code, Cursor or Zed, or set JIG_EDITOR for the server',
    });
  }
  const [exe, ...args] = editor.command.split(/\s+/).filter(Boolean);
  await new Promise<void>((resolve, reject) => {
    const child = spawn(exe ?? '', [...args, path], { detached: true, stdio: 'ignore' });
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
    child.once('error', (err) =>
      reject(
        new JigError('validation_failed', {
          reason: `body.editor: ${editor.id} could not start: ${err.message}`,
        }),
      ),
    );
  });
  return { editor: editor.id, path };
}
