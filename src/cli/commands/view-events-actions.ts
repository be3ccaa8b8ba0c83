import { isEventKind } from '../../contract/event-kinds.js';
import type { EventRecord } from '../../contract/events.js';
import type { WorkItem } from '../../contract/items.js';
import { JigClient } from '../../client/http.js';
import { getItem } from '../../client/items.js';
import { allEventsPage, ENDED_STATUSES, ENDING_EVENTS } from '../../client/view-items.js';
import { openEventStream } from '../../client/view-stream.js';
import { EXIT_FAIL, EXIT_OK, EXIT_USAGE, printJson, runVerb } from '../output.js';
import { outputStyle, paint, type Style } from '../table.js';
import { itemFor } from './view-target.js';

function eventLine(style: Style, e: EventRecord): string {
  const payload = Object.keys(e.payload).length > 0 ? ` ${JSON.stringify(e.payload)}` : '';
  const type = paint(style, 'cyan', e.type);
  return `${e.seq}\t${e.at}\t${type}\t${e.by}${e.node ? `\t${e.node}` : ''}${payload}`;
}

/** `-f`'s exit code: 0 when the item completed; 1 when it was cancelled or abandoned. */
export function outcomeCode(item: WorkItem): number {
  return item.status === 'completed' ? EXIT_OK : EXIT_FAIL;
}

export function endedLine(item: WorkItem): string {
  return `jig: item ${item.id} ended: ${item.status}${item.status === 'completed' ? '' : ' (exit 1)'}\n`;
}

interface EventsOpts {
  after: string;
  type: string[];
  follow?: boolean;
  json?: boolean;
}

/** `jig view events`. */
export function viewEvents(given: string | undefined, opts: EventsOpts): Promise<void> {
  return runVerb(async () => {
    const client = new JigClient();
    const id = await itemFor(client, 'view events', given);
    if (!id) return EXIT_USAGE;
    const after = Number(opts.after);
    if (!Number.isInteger(after) || after < 0) {
      process.stderr.write(`jig: --after ${opts.after} is not a whole number from 0\n`);
      return EXIT_USAGE;
    }
    const unknown = opts.type.filter((t) => !isEventKind(t));
    if (unknown.length > 0) {
      process.stderr.write(
        `jig: --type ${unknown.join(', ')} is not an event kind (docs/events.md lists them, e.g. node_started, gate_requested)\n`,
      );
      return EXIT_USAGE;
    }
    const types = new Set(opts.type);
    const style = outputStyle();
    const print = (e: EventRecord): void => {
      if (types.size > 0 && !types.has(e.type)) return;
      process.stdout.write(opts.json ? `${JSON.stringify(e)}\n` : `${eventLine(style, e)}\n`);
    };
    // The item is read before its history: an end stored after this read shows in the history
    // or in the stream, so none is missed.
    const before = opts.follow ? await getItem(client, id) : null;
    // One kind is filtered by the server, unless following: then every event is read, to see
    // where the history ends and whether it holds the item's end.
    const serverType = types.size === 1 && !before ? opts.type[0] : undefined;
    const page = await allEventsPage(client, id, after, serverType);
    const history = page.events;
    if (!before && opts.json) {
      const events = types.size > 0 ? history.filter((e) => types.has(e.type)) : history;
      printJson({ ...page, events });
      return EXIT_OK;
    }
    history.forEach(print);
    if (!before) return EXIT_OK;
    let last = history[history.length - 1]?.seq ?? after;
    const settled = history.some((e) => ENDING_EVENTS.has(e.type)) ? await getItem(client, id) : before;
    if (ENDED_STATUSES.has(settled.status)) {
      process.stderr.write(endedLine(settled));
      return outcomeCode(settled);
    }
    let ended: WorkItem | null = null;
    const stream = openEventStream(client, last, async (e) => {
      if (e.work_item_id !== id || e.seq <= last) return;
      last = e.seq;
      print(e);
      if (!ENDING_EVENTS.has(e.type)) return;
      const now = await getItem(client, id);
      if (ENDED_STATUSES.has(now.status)) {
        ended = now;
        stream.close();
      }
    });
    const end = await stream.ended;
    if (ended) {
      process.stderr.write(endedLine(ended));
      return outcomeCode(ended);
    }
    process.stderr.write(
      `jig: the server closed the event stream${end.by === 'server' ? ` (${end.code}${end.reason ? `: ${end.reason}` : ''})` : ''}; resume with --after ${last}\n`,
    );
    return EXIT_FAIL;
  });
}
