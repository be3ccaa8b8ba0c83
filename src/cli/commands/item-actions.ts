import { JigClient } from '../../client/http.js';
import { completeByHand, escalateItem, moveItem, stopEscalation, type ItemMove } from '../../client/items.js';
import { EXIT_OK, printJson } from '../output.js';
import { itemId } from '../item-of-cwd.js';
import { BadArgument } from './item-setup-args.js';
import { itemVerb } from './item-verb.js';

/** `jig item escalate`. */
export function itemEscalate(
  given: string | undefined,
  opts: { message?: string; stop?: boolean; newThread?: boolean; json?: boolean },
): Promise<void> {
  return itemVerb(async () => {
    if (!opts.stop && !opts.message?.trim())
      throw new BadArgument('escalate needs --message TEXT (or --stop)');
    const c = new JigClient();
    const id = await itemId(c, 'escalate', given);
    if (opts.stop) {
      const res = await stopEscalation(c, id);
      if (opts.json) printJson(res);
      else process.stdout.write(`stopped escalation ${res.stopped} of ${id}\n`);
      return EXIT_OK;
    }
    const res = await escalateItem(c, id, opts.message ?? '', opts.newThread === true);
    if (opts.json) printJson(res);
    else
      process.stdout.write(
        `escalated ${id}: session ${res.session} on ${res.harness}` +
          (res.continues ? ` (goes on from ${res.continues})\n` : ' (new conversation)\n'),
      );
    return EXIT_OK;
  });
}

/** One of `jig item cancel|complete|archive|restore|abandon`: `m` is its row of item.ts's table. */
export function itemMove(
  m: { move: ItemMove; past: string },
  given: string | undefined,
  opts: { reason?: string; json?: boolean; yes?: boolean; closeBeads?: boolean },
): Promise<void> {
  return itemVerb(async () => {
    if (m.move === 'abandon' && (!opts.reason || !opts.yes))
      throw new BadArgument('abandon deletes the worktree and branch; pass --reason TEXT and --yes');
    const c = new JigClient();
    const id = await itemId(c, m.move, given);
    const res =
      m.move === 'complete'
        ? await completeByHand(c, id, opts.reason, opts.closeBeads)
        : await moveItem(c, id, m.move, opts.reason);
    if (opts.json) printJson(res);
    else process.stdout.write(`${m.past} ${res.id}\n`);
    return EXIT_OK;
  });
}
