import { JigClient } from '../../client/http.js';
import { listThreadsOf } from '../../client/threads.js';
import type { ReviewThread } from '../../contract/threads.js';
import { EXIT_OK, EXIT_USAGE, printJson, runVerb } from '../output.js';
import { outputStyle, table } from '../table.js';
import { itemFor } from './view-target.js';

/** `a.txt:2-3` (where the lines are now), the file alone, or `general` for a thread on no file. */
export function placeOf(t: ReviewThread): string {
  if (!t.file_path) return 'general';
  if (t.start_line === null) return t.file_path;
  const at = t.lines_now ?? { start: t.start_line, end: t.end_line ?? t.start_line };
  const lines = at.start === at.end ? `${at.start}` : `${at.start}-${at.end}`;
  return `${t.file_path}:${lines}${t.outdated ? ' (outdated)' : ''}`;
}

const firstLine = (s: string) => {
  const line = s.split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
};

/** `jig view threads`. */
export function viewThreads(given: string | undefined, o: { open?: boolean; json?: boolean }): Promise<void> {
  return runVerb(async () => {
    const c = new JigClient();
    const id = await itemFor(c, 'view threads', given);
    if (!id) return EXIT_USAGE;
    const { threads } = await listThreadsOf(c, id, o.open === true);
    if (o.json) {
      printJson({ threads });
      return EXIT_OK;
    }
    if (threads.length === 0) {
      process.stdout.write(`item ${id} has no ${o.open ? 'open ' : ''}review threads\n`);
      return EXIT_OK;
    }
    const rows = threads.map((t) => [
      t.id,
      t.state,
      t.label ?? '-',
      placeOf(t),
      t.claim ?? '-',
      `${firstLine(t.comments[0]?.body ?? '')}${t.comments.length > 1 ? ` (+${t.comments.length - 1})` : ''}`,
    ]);
    process.stdout.write(
      table(outputStyle(), ['THREAD', 'STATE', 'LABEL', 'WHERE', 'CLAIM', 'COMMENT'], rows),
    );
    return EXIT_OK;
  });
}
