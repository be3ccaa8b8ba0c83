import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { AttachmentKind } from '../../contract/items.js';
import { JigClient } from '../../client/http.js';
import { getItem } from '../../client/items.js';
import { pendingArtifact, readDoc } from '../../client/view-items.js';
import { EXIT_FAIL, EXIT_OK, EXIT_USAGE, printJson, runVerb } from '../output.js';
import { outputStyle, table } from '../table.js';
import { editorFor, runEditor } from './repo-editor.js';
import { itemFor } from './view-target.js';

/** What `view doc` reads: the attachments filed with the item, and the pending gate's document. */
export const DOC_KINDS = [...AttachmentKind.options, 'artifact'] as const;
type DocKind = (typeof DOC_KINDS)[number];
const isDocKind = (s: string): s is DocKind => (DOC_KINDS as readonly string[]).includes(s);

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
    .description("an item's documents: the spec and plan filed with it, and the pending gate's document")
    .option('--json', "print {attachments, artifact}: the item's attachments and the gate document (or null)")
    .action((given: string | undefined, opts: { json?: boolean }) =>
      runVerb(async () => {
        const c = new JigClient();
        const id = await itemFor(c, 'view docs', given);
        if (!id) return EXIT_USAGE;
        const item = await getItem(c, id);
        const artifact = await pendingArtifact(c, id);
        if (opts.json) {
          printJson({ attachments: item.attachments, artifact });
          return EXIT_OK;
        }
        const rows = Object.values(item.attachments).map((a) => [
          a.kind,
          a.source === 'path' ? (a.path ?? '') : '(text)',
          `${a.bytes} bytes`,
        ]);
        if (artifact) rows.push(['artifact', artifact.path, `gate ${artifact.gate}, ${artifact.kind}`]);
        const style = outputStyle();
        if (rows.length === 0) process.stdout.write(`item ${id} has no documents\n`);
        else process.stdout.write(table(style, ['KIND', 'FROM', 'ABOUT'], rows));
        if (rows.length > 0 && style.tty) process.stdout.write(`read one: jig view doc ${id} KIND\n`);
        return EXIT_OK;
      }),
    );

  view
    .command('doc')
    .argument('<id-or-kind>', "work item id, or the KIND alone inside an item's worktree")
    .argument('[kind]', `which document: ${DOC_KINDS.join(', ')}`)
    .description("one of an item's documents: its spec or plan, or the pending gate's document (artifact)")
    .option('--open [editor]', 'open it in an editor (default: JIG_EDITOR, VISUAL, EDITOR, then vi)')
    .option('--json', 'print the API answer (for artifact: {gate, kind, path, text}; else {kind, text})')
    .action((first: string, second: string | undefined, opts: { open?: string | boolean; json?: boolean }) =>
      runVerb(async () => {
        const [given, kindArg] =
          second === undefined && isDocKind(first) ? [undefined, first] : [first, second];
        const c = new JigClient();
        const id = await itemFor(c, 'view doc', given);
        if (!id) return EXIT_USAGE;
        if (!kindArg || !isDocKind(kindArg)) {
          process.stderr.write(`jig: view doc needs a KIND: ${DOC_KINDS.join(', ')}\n`);
          return EXIT_USAGE;
        }
        const editor =
          opts.open === undefined
            ? null
            : editorFor(typeof opts.open === 'string' ? opts.open : undefined, 'document');
        if (kindArg === 'artifact') {
          const a = await pendingArtifact(c, id);
          if (!a) {
            process.stderr.write(`jig: item ${id} has no pending gate with a document\n`);
            return EXIT_FAIL;
          }
          // The gate's document is a file of the worktree: open it there, where edits count.
          if (editor) return openIn(editor, a.path);
          if (opts.json) printJson(a);
          else process.stdout.write(a.text.endsWith('\n') ? a.text : `${a.text}\n`);
          return EXIT_OK;
        }
        const text = await readDoc(c, id, kindArg);
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
    .option('--json', 'print the API answer: {gate, kind, path, text}')
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
