import { JigClient } from '../../client/http.js';
import { recordTaskProgress } from '../../client/item-acts.js';
import { labelMergeRequest } from '../../client/merge-requests.js';
import { postThreadOn, setThreadState, submitReviewOf } from '../../client/threads.js';
import type { ThreadBody } from '../../contract/threads.js';
import { EXIT_OK, printJson } from '../output.js';
import { itemId } from '../item-of-cwd.js';
import { nextFor, printAct } from '../next-step.js';
import { BadArgument } from './item-setup-args.js';
import { placeOf } from './view-threads-actions.js';
import { itemVerb, nowPhrase } from './item-verb.js';

/*
 * `jig item comment|resolve|reopen|review` (a person's review of an item's changes) and the worker
 * verbs `progress|reply|mr-label` (an agent inside an item's task reporting back; inside a task the
 * client names the item in `x-jig-work-item`, so the server records the answer as the agent's).
 */

function commentBody(o: CommentOpts): ThreadBody {
  const body = (o.body ?? '').trim();
  if (o.reply !== undefined) return { body, thread_id: o.reply };
  const m = o.lines ? /^(\d+)(?:-(\d+))?$/.exec(o.lines) : null;
  return {
    body,
    ...(o.file !== undefined ? { file_path: o.file } : {}),
    ...(m ? { start_line: Number(m[1]), end_line: Number(m[2] ?? m[1]) } : {}),
    ...(o.side !== undefined ? { side: o.side } : {}),
    ...(o.label !== undefined ? { label: o.label } : {}),
    ...(o.suggest !== undefined ? { suggestion: o.suggest } : {}),
  };
}

interface CommentOpts {
  body?: string;
  file?: string;
  lines?: string;
  side?: 'old' | 'new';
  label?: 'must-fix' | 'question' | 'nit';
  suggest?: string;
  reply?: string;
  json?: boolean;
}

function checkComment(o: CommentOpts): void {
  if (!o.body?.trim()) throw new BadArgument('comment needs --body TEXT');
  const anchored = o.file !== undefined || o.lines !== undefined || o.side !== undefined;
  if (o.reply !== undefined && (anchored || o.label !== undefined || o.suggest !== undefined))
    throw new BadArgument(
      '--reply answers a thread; it takes no --file, --lines, --side, --label or --suggest',
    );
  if ((o.lines !== undefined || o.side !== undefined) && o.file === undefined)
    throw new BadArgument('--lines and --side place a comment in a file; pass --file PATH');
  if (o.lines !== undefined) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(o.lines);
    if (!m || Number(m[1]) < 1 || (m[2] !== undefined && Number(m[2]) < Number(m[1])))
      throw new BadArgument(`--lines ${o.lines} is not a line or a range A-B (1-based, A <= B)`);
  }
  if (o.suggest !== undefined && o.side === 'old')
    throw new BadArgument('--suggest replaces lines of the new side; it cannot go with --side old');
  if (o.suggest !== undefined && o.lines === undefined)
    throw new BadArgument('--suggest replaces lines; pass --file PATH --lines A-B');
}

/** `jig item comment`. */
export function itemComment(
  given: string | undefined,
  opts: CommentOpts & { json?: boolean },
): Promise<void> {
  return itemVerb(async () => {
    checkComment(opts);
    const c = new JigClient();
    const id = await itemId(c, 'comment', given);
    const t = await postThreadOn(c, id, commentBody(opts));
    if (opts.json) printJson(t);
    else if (opts.reply !== undefined) process.stdout.write(`replied on thread ${t.id} of ${id}\n`);
    else
      process.stdout.write(
        `opened thread ${t.id} on ${id} (${placeOf(t)}${t.label ? `, ${t.label}` : ''})\n`,
      );
    return EXIT_OK;
  });
}

/** `jig item resolve` and `reopen`. */
export function itemThreadState(
  verb: 'resolve' | 'reopen',
  thread: string,
  given: string | undefined,
  opts: { json?: boolean },
): Promise<void> {
  return itemVerb(async () => {
    const c = new JigClient();
    const id = await itemId(c, verb, given);
    const t = await setThreadState(c, id, thread, verb === 'resolve' ? 'resolved' : 'open');
    if (opts.json) printJson(t);
    else process.stdout.write(`${verb === 'resolve' ? 'resolved' : 'reopened'} thread ${t.id} on ${id}\n`);
    return EXIT_OK;
  });
}

/** `jig item review`. */
export function itemReview(
  verdict: string,
  given: string | undefined,
  opts: { summary?: string; node?: string; json?: boolean },
): Promise<void> {
  return itemVerb(async () => {
    if (opts.node !== undefined && verdict !== 'request-changes')
      throw new BadArgument('--node goes with request-changes: only that reruns a node');
    const c = new JigClient();
    const id = await itemId(c, 'review', given);
    const outcome =
      verdict === 'request-changes' ? 'request_changes' : verdict === 'approve' ? 'approve' : 'comment';
    const summary = opts.summary?.trim();
    const res = await submitReviewOf(c, id, {
      outcome,
      ...(summary ? { summary } : {}),
      ...(opts.node ? { node: opts.node } : {}),
    });
    if (opts.json) {
      printJson(res);
      return EXIT_OK;
    }
    const r = res.review;
    const what =
      r.outcome === 'request_changes'
        ? `requested changes on ${id}: ${r.node ?? '?'} reruns (fix round ${r.round ?? '?'})`
        : r.outcome === 'approve'
          ? `approved ${id}${r.gate ? ` at ${r.gate}` : ''}`
          : `commented on ${id}`;
    printAct(`${what}; ${nowPhrase(res.item)}`, nextFor(res.item));
    return EXIT_OK;
  });
}

/** `jig item progress`. */
export function itemProgress(
  task: string,
  given: string | undefined,
  opts: { json?: boolean },
): Promise<void> {
  return itemVerb(async () => {
    if (task.trim() === '') throw new BadArgument('progress needs the task, e.g. 3');
    const c = new JigClient();
    const id = await itemId(c, 'progress', given);
    const res = await recordTaskProgress(c, id, task);
    if (opts.json) printJson(res);
    else process.stdout.write(`recorded task ${res.task} started on ${res.work_item_id}\n`);
    return EXIT_OK;
  });
}

/** `jig item reply`. */
export function itemReply(
  thread: string,
  given: string | undefined,
  opts: { body?: string; claim?: 'fixed' | 'answered' | 'should_fix'; json?: boolean },
): Promise<void> {
  return itemVerb(async () => {
    const body = opts.body?.trim();
    if (!body) throw new BadArgument('reply needs --body TEXT');
    const c = new JigClient();
    const id = await itemId(c, 'reply', given);
    const t = await postThreadOn(c, id, {
      body,
      thread_id: thread,
      ...(opts.claim ? { claim: opts.claim } : {}),
    });
    if (opts.json) printJson(t);
    else process.stdout.write(`replied on thread ${t.id} of ${id}${opts.claim ? ` (${opts.claim})` : ''}\n`);
    return EXIT_OK;
  });
}

/** `jig item mr-label`. */
export function itemMrLabel(labels: string[], opts: { item?: string; json?: boolean }): Promise<void> {
  return itemVerb(async () => {
    const c = new JigClient();
    const id = await itemId(c, 'mr-label', opts.item);
    const mr = await labelMergeRequest(c, id, labels);
    if (opts.json) printJson(mr);
    else process.stdout.write(`labelled ${mr.url}: ${mr.labels.join(', ') || '(none)'}\n`);
    return EXIT_OK;
  });
}
