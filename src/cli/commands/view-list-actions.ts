import { realpathSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { itemStatuses } from '../../contract/item-status.js';
import type { z } from 'zod';
import { displayStatuses, type ItemsPage, type WorkItem } from '../../contract/items.js';
import { JigClient } from '../../client/http.js';
import { getItem, listItems } from '../../client/items.js';
import { listRepos } from '../../client/repos.js';
import { EXIT_OK, EXIT_USAGE, printJson, runVerb } from '../output.js';
import { repoOfCwd } from '../repo-of-cwd.js';
import { outputStyle, paint, statusColour, table, type Style } from '../table.js';
import { itemOfCwd } from '../item-of-cwd.js';
import { STATUS_NAMES } from '../contract-names.js';

type Want = { display: Set<string>; stored: Set<string> };

/** `needs-you`, `Needs you` and `needs_you` are one name. */
const norm = (s: string) =>
  s
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

function parseStatuses(list: string): Want | string {
  const want: Want = { display: new Set(), stored: new Set() };
  for (const raw of list.split(',').filter((s) => s.trim() !== '')) {
    const s = norm(raw);
    if ((displayStatuses as readonly string[]).includes(s)) want.display.add(s);
    else if ((itemStatuses as readonly string[]).includes(s)) want.stored.add(s);
    else return `--status ${raw.trim()} is not one of ${STATUS_NAMES.join(', ')}`;
  }
  return want;
}

/** The stored statuses a display status comes from (the server filters on those). */
const storedOf: Record<string, string[]> = {
  paused: ['paused'],
  blocked: ['blocked'],
  queued: ['queued'],
  running: ['running'],
  waiting: ['waiting'],
  rate_limited: ['stopped'],
  needs_you: ['stopped', 'blocked'],
  done: ['completed'],
  cancelled: ['cancelled'],
  abandoned: ['abandoned'],
  archived: [],
};

/** Every stored status but abandoned: what `view list` shows unless asked for more. */
const NOT_ABANDONED = itemStatuses.filter((s) => s !== 'abandoned').join(',');

function serverQuery(
  want: Want | null,
  includeAbandoned: boolean,
): { status?: string; archived: 'true' | 'false' | 'all' } {
  // As the original's `list`: an abandoned item (its worktree and branch gone) is left out unless
  // asked for by --include-abandoned or by naming its status.
  if (!want) return includeAbandoned ? { archived: 'false' } : { status: NOT_ABANDONED, archived: 'false' };
  const onlyArchived = want.display.has('archived') && want.display.size === 1 && want.stored.size === 0;
  const archived = onlyArchived ? 'true' : want.display.has('archived') ? 'all' : 'false';
  if (want.display.has('archived')) return { archived };
  const stored = new Set([...want.stored, ...[...want.display].flatMap((d) => storedOf[d] ?? [])]);
  return { status: [...stored].join(','), archived };
}

const wanted = (want: Want | null, i: WorkItem): boolean =>
  !want || want.display.has(i.display_status) || want.stored.has(i.status);

const canonical = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
};

/**
 * The repo to list: `--repo` (a path or a connected repo's name), else the repo of the cwd when it
 * is connected (inside an item's worktree: the item's repo), else none (every repo).
 */
async function scope(
  c: JigClient,
  given: string | undefined,
): Promise<{ repo: string | null; error?: string }> {
  const { repos } = await listRepos(c);
  if (given) {
    const byName = repos.find((r) => r.name === given);
    if (byName) return { repo: byName.path };
    const path = canonical(given);
    const byPath = repos.find((r) => canonical(r.path) === path);
    if (byPath) return { repo: byPath.path };
    return { repo: null, error: `--repo ${given} is not a connected repository (jig repo list)` };
  }
  const item = await itemOfCwd(c);
  if (item) {
    try {
      return { repo: (await getItem(c, item.id)).repo };
    } catch {
      // Not an item this server knows (a stale JIG_WORK_ITEM_ID): fall back to the checkout.
    }
  }
  const top = repoOfCwd();
  if (!top) return { repo: null };
  const here = canonical(top);
  return { repo: repos.find((r) => canonical(r.path) === here)?.path ?? null };
}

export interface ListOpts {
  status?: string;
  repo?: string;
  chain?: string;
  all?: boolean;
  includeAbandoned?: boolean;
  limit: string;
  json?: boolean;
}

export type Listed =
  { page: z.infer<typeof ItemsPage>; items: WorkItem[]; repo: string | null } | { error: string };

/** The items `view list` (and `view watch`) shows under these options, or why the options are wrong. */
export async function listFor(c: JigClient, opts: ListOpts): Promise<Listed> {
  const want = opts.status === undefined ? null : parseStatuses(opts.status);
  if (typeof want === 'string') return { error: want };
  if (opts.all && opts.repo) return { error: '--all and --repo contradict each other; pass one' };
  const where = opts.all ? { repo: null } : await scope(c, opts.repo);
  if (where.error) return { error: where.error };
  const page = await listItems(c, {
    ...serverQuery(want, opts.includeAbandoned === true),
    repo: where.repo ?? undefined,
    chain: opts.chain,
    limit: opts.limit,
  });
  // A display status the server cannot filter on (needs_you vs rate_limited) is kept here.
  return { page, items: page.items.filter((i) => wanted(want, i)), repo: where.repo };
}

export function itemTable(style: Style, items: WorkItem[]): string {
  const rows = items.map((i) => [
    i.id,
    { text: i.display_status, colour: statusColour(i.display_status) },
    i.chain,
    i.current_node ?? '',
    basename(i.repo),
    i.title,
  ]);
  return table(style, ['ID', 'STATUS', 'CHAIN', 'NODE', 'REPO', 'TITLE'], rows);
}

/** `jig view list`. */
export function viewList(opts: ListOpts): Promise<void> {
  return runVerb(async () => {
    const listed = await listFor(new JigClient(), opts);
    if ('error' in listed) {
      process.stderr.write(`jig: ${listed.error}\n`);
      return EXIT_USAGE;
    }
    const { page, items } = listed;
    if (opts.json) {
      printJson({ ...page, items });
      return EXIT_OK;
    }
    const style = outputStyle();
    if (style.tty && listed.repo)
      process.stdout.write(paint(style, 'dim', `${listed.repo} (--all for every repo)\n`));
    process.stdout.write(itemTable(style, items));
    if (style.tty && items.length === 0) process.stdout.write('no work items\n');
    if (page.total > page.items.length)
      process.stdout.write(`(${page.items.length} of ${page.total}; --limit for more)\n`);
    return EXIT_OK;
  });
}
