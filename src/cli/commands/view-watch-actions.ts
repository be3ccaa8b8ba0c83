import { JigClient } from '../../client/http.js';
import { openEventStream } from '../../client/view-stream.js';
import { EXIT_FAIL, EXIT_OK, EXIT_USAGE, runVerb } from '../output.js';
import { outputStyle, paint } from '../table.js';
import { itemTable, listFor, type ListOpts } from './view-list-actions.js';

const REDRAW_MS = 150;

/**
 * Reads keys in raw mode so Ctrl-C (and q) reach this process as bytes, not as a SIGINT the
 * terminal also sends to whatever shell started us: that shell dying first made the exit status
 * 130 instead of 0. The terminal's mode is put back however the watch ends.
 */
function rawKeys(quit: () => void): { restore: () => void } {
  const input = process.stdin;
  if (!input.isTTY) return { restore: () => undefined };
  const onData = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    if (text.includes('\u0003') || text.includes('q') || text.includes('\u0004')) quit();
  };
  input.setRawMode(true);
  input.on('data', onData);
  input.resume();
  return {
    restore: () => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
    },
  };
}

/** `jig view watch`. */
export function viewWatch(opts: ListOpts): Promise<void> {
  return runVerb(async () => {
    const style = outputStyle();
    if (!style.tty) {
      process.stderr.write(
        'jig: view watch draws on a terminal; use `view list` or `view events -f` in a pipe\n',
      );
      return EXIT_USAGE;
    }
    const c = new JigClient();
    const draw = async (): Promise<string | null> => {
      const listed = await listFor(c, opts);
      if ('error' in listed) return listed.error;
      const head = paint(
        style,
        'dim',
        `jig · ${c.server.url} · ${listed.repo ?? 'every repo'} · ${new Date().toLocaleTimeString()} · Ctrl-C or q quits`,
      );
      process.stdout.write(`\u001b[2J\u001b[H${head}\n\n${itemTable(style, listed.items)}`);
      return null;
    };
    const problem = await draw();
    if (problem) {
      process.stderr.write(`jig: ${problem}\n`);
      return EXIT_USAGE;
    }
    let timer: NodeJS.Timeout | null = null;
    const later = () => {
      timer ??= setTimeout(() => {
        timer = null;
        void draw();
      }, REDRAW_MS);
    };
    // Redrawn when the stream is ready too: an item filed between the first draw and the
    // subscription would otherwise wait for the next event to show.
    const stream = openEventStream(c, null, later, later);
    const quit = () => stream.close();
    process.once('SIGINT', quit);
    const keys = rawKeys(quit);
    const end = await stream.ended.finally(keys.restore);
    process.off('SIGINT', quit);
    if (timer) clearTimeout(timer);
    if (end.by === 'client') return EXIT_OK;
    process.stderr.write(`\njig: the server closed the event stream (${end.code})\n`);
    return EXIT_FAIL;
  });
}
