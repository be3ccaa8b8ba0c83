import type { Command } from 'commander';
import { JigClient } from '../../client/http.js';
import { searchIndex } from '../../client/search.js';
import { SearchKind } from '../../contract/search.js';
import { EXIT_OK, EXIT_USAGE, printJson, runVerb } from '../output.js';

function usage(message: string): number {
  process.stderr.write(`jig: ${message}\n`);
  return EXIT_USAGE;
}

/** `jig view search`: the search index, best first, one hit per two lines. */
export function registerViewMore(view: Command): void {
  view
    .command('search')
    .argument('<query>', 'words to look for (every one must match; the last also as a prefix)')
    .description(
      'search items, their events, review threads, documents, attachments, tracker issues, chains and the library',
    )
    .option('--limit <n>', 'at most this many hits (1-100)', '20')
    .option('--kind <kind>', `only hits of one kind: ${SearchKind.options.join(', ')}`)
    .option('--json', 'print the API answer')
    .action((query: string, opts: { limit: string; kind?: string; json?: boolean }) =>
      runVerb(async () => {
        const limit = Number(opts.limit);
        if (!Number.isInteger(limit) || limit < 1 || limit > 100)
          return usage(`--limit: ${opts.limit} is not a whole number from 1 to 100`);
        const kind = opts.kind === undefined ? undefined : SearchKind.safeParse(opts.kind);
        if (kind && !kind.success)
          return usage(`--kind: ${opts.kind} is not one of ${SearchKind.options.join(', ')}`);
        const r = await searchIndex(new JigClient(), query, limit, kind?.data);
        if (opts.json) printJson(r);
        else if (r.results.length === 0) process.stdout.write('no match\n');
        else
          process.stdout.write(
            r.results
              .map((h) => {
                const where = h.work_item_id && h.kind !== 'item' ? ` (item ${h.work_item_id})` : '';
                return `${h.kind.padEnd(10)} ${h.ref}  ${h.title}${where}\n           ${h.snippet.replace(/\s+/g, ' ').trim()}`;
              })
              .join('\n') + '\n',
          );
        return EXIT_OK;
      }),
    );
}
