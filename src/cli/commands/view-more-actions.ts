import { JigClient } from '../../client/http.js';
import { searchIndex } from '../../client/search.js';
import { SearchKind } from '../../contract/search.js';
import { EXIT_OK, EXIT_USAGE, printJson, runVerb } from '../output.js';

function usage(message: string): number {
  process.stderr.write(`jig: ${message}\n`);
  return EXIT_USAGE;
}

/** `jig view search`. */
export function viewSearch(
  query: string,
  opts: { limit: string; kind?: string; json?: boolean },
): Promise<void> {
  return runVerb(async () => {
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
  });
}
