import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AttachmentKind } from '../../contract/items.js';
import { JigClient } from '../../client/http.js';
import { listDocumentsOf, pendingArtifact, readDoc, readTaskDocument } from '../../client/view-items.js';
import { EXIT_FAIL, EXIT_OK, EXIT_USAGE, printJson, runVerb } from '../output.js';
import { outputStyle, table } from '../table.js';
import { editorFor, runEditor } from './repo-editor.js';
import { itemFor } from './view-target.js';

async function openIn(editor: string, path: string): Promise<number> {
  const r = await runEditor(editor, path);
  if ('error' in r) {
    process.stderr.write(`jig: ${r.error}\n`);
    return EXIT_FAIL;
  }
  return r.code === 0 ? EXIT_OK : EXIT_FAIL;
}

/** `jig view docs`. */
export function viewDocs(given: string | undefined, opts: { json?: boolean }): Promise<void> {
  return runVerb(async () => {
    const c = new JigClient();
    const id = await itemFor(c, 'view docs', given);
    if (!id) return EXIT_USAGE;
    const { documents } = await listDocumentsOf(c, id);
    if (opts.json) {
      printJson({ documents });
      return EXIT_OK;
    }
    const rows = documents.map((d) => [
      d.kind,
      d.source === 'task' ? `task of ${d.node ?? '?'}` : 'attachment',
      d.path ?? '(filed text)',
      d.problem ?? (d.bytes === null ? '' : `${d.bytes} bytes`),
      d.gate ? `gate ${d.gate} waits on it` : '',
    ]);
    const style = outputStyle();
    if (rows.length === 0) process.stdout.write(`item ${id} has no documents\n`);
    else process.stdout.write(table(style, ['KIND', 'FROM', 'PATH', 'SIZE', 'GATE'], rows));
    if (rows.length > 0 && style.tty) process.stdout.write(`read one: jig view doc ${id} KIND\n`);
    return EXIT_OK;
  });
}

/** `jig view doc`. */
export function viewDoc(
  first: string,
  second: string | undefined,
  opts: { open?: string | boolean; json?: boolean },
): Promise<void> {
  return runVerb(async () => {
    const c = new JigClient();
    // One argument is the KIND when it is not an item id (inside a worktree the item is known).
    const [given, kindArg] =
      second === undefined && !/^[a-z0-9]{8}$/.test(first) ? [undefined, first] : [first, second];
    const id = await itemFor(c, 'view doc', given);
    if (!id) return EXIT_USAGE;
    if (!kindArg) {
      process.stderr.write(`jig: view doc needs a KIND: one \`jig view docs ${id}\` lists, or artifact\n`);
      return EXIT_USAGE;
    }
    const editor =
      opts.open === undefined
        ? null
        : editorFor(typeof opts.open === 'string' ? opts.open : undefined, 'document');
    const a = kindArg === 'artifact' ? await pendingArtifact(c, id) : await readTaskDocument(c, id, kindArg);
    if (a) {
      // A document of the worktree: opened there, where edits count.
      if (editor) return openIn(editor, a.path);
      if (opts.json) printJson(a);
      else process.stdout.write(a.text.endsWith('\n') ? a.text : `${a.text}\n`);
      return EXIT_OK;
    }
    if (kindArg === 'artifact') {
      process.stderr.write(`jig: item ${id} has no pending gate with a document\n`);
      return EXIT_FAIL;
    }
    const attached = AttachmentKind.safeParse(kindArg);
    if (!attached.success) {
      process.stderr.write(`jig: item ${id} has no ${kindArg} document (jig view docs ${id})\n`);
      return EXIT_USAGE;
    }
    const text = await readDoc(c, id, attached.data);
    if (editor) {
      // The attachment is the copy read at intake, not a file of the repo: a temp copy opens.
      const file = join(tmpdir(), `jig-${id}-${kindArg}.md`);
      writeFileSync(file, text);
      return openIn(editor, file);
    }
    if (opts.json) printJson({ kind: kindArg, text });
    else process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    return EXIT_OK;
  });
}

/** `jig view artifact`. */
export function viewArtifact(given: string | undefined, opts: { json?: boolean }): Promise<void> {
  return runVerb(async () => {
    const c = new JigClient();
    const id = await itemFor(c, 'view artifact', given);
    if (!id) return EXIT_USAGE;
    const a = await pendingArtifact(c, id);
    if (!a) {
      process.stderr.write(`jig: item ${id} has no pending gate with a document\n`);
      return EXIT_FAIL;
    }
    if (opts.json) printJson(a);
    else {
      if (outputStyle().tty) process.stdout.write(`gate ${a.gate} · ${a.kind} · ${a.path}\n\n`);
      process.stdout.write(a.text.endsWith('\n') ? a.text : `${a.text}\n`);
    }
    return EXIT_OK;
  });
}
