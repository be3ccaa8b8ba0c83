import { basename } from 'node:path';
import type { Command } from 'commander';
import type { EventRecord } from '../../contract/events.js';
import { JigClient } from '../../client/http.js';
import { followEvents, getItem, listItems, listSessions, readEvents, readLog } from '../../client/items.js';
import { EXIT_OK, EXIT_USAGE, printJson, runVerb } from '../output.js';

function eventLine(e: EventRecord): string {
  const payload = Object.keys(e.payload).length > 0 ? ` ${JSON.stringify(e.payload)}` : '';
  return `${e.seq}\t${e.at}\t${e.type}\t${e.by}${e.node ? `\t${e.node}` : ''}${payload}`;
}

export function registerView(program: Command): void {
  const view = program.command('view').description('read work items and their events');

  view
    .command('list')
    .description('list work items, newest first')
    .option('--status <list>', 'comma-separated statuses')
    .option('--repo <path>', 'only this repository')
    .option('--chain <id>', 'only this chain')
    .option('--all', 'include archived items')
    .option('--limit <n>', 'at most this many', '100')
    .option('--json', 'print the API answer')
    .action(
      (opts: {
        status?: string;
        repo?: string;
        chain?: string;
        all?: boolean;
        limit: string;
        json?: boolean;
      }) =>
        runVerb(async () => {
          const page = await listItems(new JigClient(), {
            status: opts.status,
            repo: opts.repo,
            chain: opts.chain,
            archived: opts.all ? 'all' : 'false',
            limit: opts.limit,
          });
          if (opts.json) printJson(page);
          else {
            for (const i of page.items) {
              process.stdout.write(
                `${i.id}\t${i.display_status}\t${i.chain}\t${basename(i.repo)}\t${i.title}\n`,
              );
            }
            if (page.total > page.items.length)
              process.stdout.write(`(${page.items.length} of ${page.total})\n`);
          }
          return EXIT_OK;
        }),
    );

  view
    .command('show')
    .argument('<id>', 'work item id')
    .description('one work item in full')
    .option('--json', 'print the API answer')
    .action((id: string, opts: { json?: boolean }) =>
      runVerb(async () => {
        const i = await getItem(new JigClient(), id);
        if (opts.json) printJson(i);
        else {
          const lines = [
            `${i.id}  ${i.title}`,
            `status   ${i.display_status}${i.stop ? ` (${i.stop.kind}: ${i.stop.reason})` : ''}`,
            `chain    ${i.chain}${i.current_node ? ` at ${i.current_node}` : ''}`,
            `repo     ${i.repo} on ${i.branch}`,
            `budget   $${i.budget_cap.spent_usd.toFixed(2)} of ${i.budget_cap.cap_usd === null ? 'no cap' : `$${i.budget_cap.cap_usd.toFixed(2)} (${i.budget_cap.key})`}`,
          ];
          if (i.description) lines.push('', i.description);
          process.stdout.write(`${lines.join('\n')}\n`);
        }
        return EXIT_OK;
      }),
    );

  view
    .command('events')
    .argument('<id>', 'work item id')
    .description("an item's events; -f keeps following new ones")
    .option('--after <seq>', 'only events after this seq', '0')
    .option('-f, --follow', 'keep printing events as they are stored')
    .option('--json', 'one JSON object per line')
    .action((id: string, opts: { after: string; follow?: boolean; json?: boolean }) =>
      runVerb(async () => {
        const client = new JigClient();
        const print = (e: EventRecord): void => {
          process.stdout.write(opts.json ? `${JSON.stringify(e)}\n` : `${eventLine(e)}\n`);
        };
        let after = Number(opts.after) || 0;
        for (;;) {
          const page = await readEvents(client, id, after);
          page.events.forEach(print);
          if (page.events.length === 0) break;
          after = page.events[page.events.length - 1]!.seq;
        }
        if (opts.follow) await followEvents(client, id, after, print);
        return EXIT_OK;
      }),
    );

  view
    .command('logs')
    .argument('<id>', 'work item id')
    .description("a task session's output (default: the item's latest session)")
    .option('--session <id>', 'which session')
    .option('-n, --bytes <n>', 'only the last N bytes', '65536')
    .option('--list', 'list the sessions instead')
    .option('--json', 'print the API answer (with --list)')
    .action((id: string, opts: { session?: string; bytes: string; list?: boolean; json?: boolean }) =>
      runVerb(async () => {
        const client = new JigClient();
        const { sessions } = await listSessions(client, id);
        if (opts.list) {
          if (opts.json) printJson({ sessions });
          else {
            for (const s of sessions) {
              process.stdout.write(
                `${s.id}\t${s.status}\t${s.task_path}\t${s.started_at}\t${s.log_bytes} bytes\n`,
              );
            }
          }
          return EXIT_OK;
        }
        const session = opts.session ?? sessions[sessions.length - 1]?.id;
        if (!session) {
          process.stderr.write(`jig: item ${id} has run no task yet\n`);
          return EXIT_USAGE;
        }
        process.stdout.write(await readLog(client, id, session, Number(opts.bytes) || undefined));
        return EXIT_OK;
      }),
    );
}
