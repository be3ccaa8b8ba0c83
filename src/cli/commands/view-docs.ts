import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
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

export function registerViewDocs(view: Command): void {
  view
    .command('docs')
    .argument('[id]', 'work item id (default: the item of the worktree you are in)')
    .description(
      "an item's documents: the spec and plan filed with it and what its tasks wrote, with the gate that shows one",
    )
    .option(
      '--json',
      'print the API answer: {documents: [{id, kind, source, node, path, digest, bytes, gate, problem}]}',
    )
    .action((given: string | undefined, opts: { json?: boolean }) =>
      runVerb(async () => {
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
      }),
    );

  view
    .command('doc')
    .argument('<id-or-kind>', "work item id, or the KIND alone inside an item's worktree")
    .argument(
      '[kind]',
      'which document: a kind `view docs` lists (spec, plan, …), or artifact for the pending gate',
    )
    .description(
      "one of an item's documents: a spec or plan, a document a task wrote, or the pending gate's (artifact)",
    )
    .option('--open [editor]', 'open it in an editor (default: JIG_EDITOR, VISUAL, EDITOR, then vi)')
    .option(
      '--json',
      'print the API answer ({kind, node, path, text, digest}; an attachment not in the worktree: {kind, text})',
    )
    .action((first: string, second: string | undefined, opts: { open?: string | boolean; json?: boolean }) =>
      runVerb(async () => {
        const c = new JigClient();
        // One argument is the KIND when it is not an item id (inside a worktree the item is known).
        const [given, kindArg] =
          second === undefined && !/^[a-z0-9]{8}$/.test(first) ? [undefined, first] : [first, second];
        const id = await itemFor(c, 'view doc', given);
        if (!id) return EXIT_USAGE;
        if (!kindArg) {
          process.stderr.write(
            `jig: view doc needs a KIND: one \`jig view docs ${id}\` lists, or artifact\n`,
          );
          return EXIT_USAGE;
        }
        const editor =
          opts.open === undefined
            ? null
            : editorFor(typeof opts.open === 'string' ? opts.open : undefined, 'document');
        const a =
          kindArg === 'artifact' ? await pendingArtifact(c, id) : await readTaskDocument(c, id, kindArg);
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
      }),
    );

  view
    .command('artifact')
    .argument('[id]', 'work item id (default: the item of the worktree you are in)')
    .description("the pending gate's document (what approving it approves)")
    .option('--json', 'print the API answer: {gate, kind, path, text, digest}')
    .action((given: string | undefined, opts: { json?: boolean }) =>
      runVerb(async () => {
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
      }),
    );
}
