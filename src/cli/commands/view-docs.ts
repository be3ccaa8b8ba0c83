import type { Command } from 'commander';
import { later } from '../lazy.js';

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
    .action(later(() => import('./view-docs-actions.js'), 'viewDocs'));

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
    .action(later(() => import('./view-docs-actions.js'), 'viewDoc'));

  view
    .command('artifact')
    .argument('[id]', 'work item id (default: the item of the worktree you are in)')
    .description("the pending gate's document (what approving it approves)")
    .option('--json', 'print the API answer: {gate, kind, path, text, digest}')
    .action(later(() => import('./view-docs-actions.js'), 'viewArtifact'));
}
