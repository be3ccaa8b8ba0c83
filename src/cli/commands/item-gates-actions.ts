import { JigClient } from '../../client/http.js';
import { getItem } from '../../client/items.js';
import {
  approveGate,
  decisionTarget,
  dropBudgetCap,
  raiseBudget,
  rejectGate,
} from '../../client/item-acts.js';
import type { WorkItem } from '../../contract/items.js';
import { usdText } from '../../core/money/usd.js';
import { EXIT_FAIL, EXIT_OK, printJson } from '../output.js';
import { ApiError } from '../../client/http.js';
import { itemId } from '../item-of-cwd.js';
import { BadArgument } from './item-setup-args.js';
import { itemVerb, nowPhrase } from './item-verb.js';
import { nextFor, printAct } from '../next-step.js';

/* `jig item approve|reject|raise-budget`: the decisions a person takes on a stopped item. */

/**
 * The gate named by --gate, else the one the item waits at, with the gate request the item shows
 * now (--request, else read here): the decision answers that request and never a later one.
 */
async function gateOf(
  c: JigClient,
  id: string,
  opts: { gate?: string | undefined; request?: number | undefined },
  verb: string,
): Promise<{ gate: string; request: number | undefined }> {
  const item = await getItem(c, id);
  const target = decisionTarget(item, opts.gate);
  if (!target)
    throw new BadArgument(`${id} is not waiting at a gate (${nowPhrase(item)}): nothing to ${verb}`);
  return { gate: target.gate, request: opts.request ?? target.request };
}

const dollars = (n: number): string => `$${usdText(n)}`;

function droppedLine(item: WorkItem): string {
  const cap = item.budget_cap;
  const left =
    cap.cap_usd === null ? 'no cap applies now' : `the policy cap of ${dollars(cap.cap_usd)} still applies`;
  const stuck =
    item.status === 'stopped' && item.stop?.kind === 'budget'
      ? `; it stays stopped on its budget until \`jig item retry ${item.id}\``
      : `; ${nowPhrase(item)}`;
  return `dropped the own budget cap of ${item.id} (spent ${dollars(item.spent_usd)}); ${left}${stuck}\n`;
}

/** `jig item approve`. */
export function itemApprove(
  given: string | undefined,
  opts: { gate?: string; digest?: string; request?: number; json?: boolean },
): Promise<void> {
  return itemVerb(async () => {
    const c = new JigClient();
    const id = await itemId(c, 'approve', given);
    const { gate, request } = await gateOf(c, id, opts, 'approve');
    const res = await approveGate(c, id, gate, { digest: opts.digest, request });
    if (opts.json) printJson(res);
    else printAct(`approved ${gate} on ${res.id}; ${nowPhrase(res)}`, nextFor(res));
    return EXIT_OK;
  });
}

/** `jig item reject`. */
export function itemReject(
  given: string | undefined,
  opts: { note?: string; gate?: string; node?: string; request?: number; json?: boolean },
): Promise<void> {
  return itemVerb(async () => {
    const note = opts.note?.trim();
    if (!note) throw new BadArgument('reject needs --note TEXT: what should change');
    const c = new JigClient();
    const id = await itemId(c, 'reject', given);
    const { gate, request } = await gateOf(c, id, opts, 'reject');
    let res: WorkItem;
    try {
      res = await rejectGate(c, id, gate, note, { node: opts.node, request });
    } catch (err) {
      // The server's words, with the two commands that can move the item instead.
      if (!(err instanceof ApiError && err.is('reject_nowhere'))) throw err;
      process.stderr.write(`jig: ${err.body.detail} (jig item cancel ${id}, or jig item approve ${id})\n`);
      return EXIT_FAIL;
    }
    if (opts.json) printJson(res);
    else {
      const back = res.current_node ? `, back at ${res.current_node}` : '';
      printAct(`rejected ${gate} on ${res.id}; ${nowPhrase(res)}${back}`, nextFor(res));
    }
    return EXIT_OK;
  });
}

/** `jig item raise-budget`. */
export function itemRaiseBudget(
  given: string | undefined,
  opts: { usd?: number | 'none'; json?: boolean },
): Promise<void> {
  return itemVerb(async () => {
    if (opts.usd === undefined) throw new BadArgument('raise-budget needs --usd N (dollars) or --usd none');
    const c = new JigClient();
    const id = await itemId(c, 'raise-budget', given);
    const usd = opts.usd;
    const res = usd === 'none' ? await dropBudgetCap(c, id) : await raiseBudget(c, id, usd);
    if (opts.json) printJson(res);
    else if (usd === 'none') process.stdout.write(droppedLine(res));
    else
      process.stdout.write(
        `raised the budget of ${res.id} to ${dollars(usd)} (spent ${dollars(res.spent_usd)}); ${nowPhrase(res)}\n`,
      );
    return EXIT_OK;
  });
}
