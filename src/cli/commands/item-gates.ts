import { InvalidArgumentError, type Command } from 'commander';
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
import { EXIT_OK, printJson } from '../output.js';
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

/** A gate request: the positive integer `gate_request` of the item. */
function requestNumber(value: string): number {
  const n = Number(value);
  if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(n) || n <= 0)
    throw new InvalidArgumentError("a gate request: the item's gate_request, a positive integer");
  return n;
}

/** A dollar amount, or 'none' (commander would store a null a parser answers as an empty string). */
function usdOrNone(value: string): number | 'none' {
  if (value === 'none') return 'none';
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0)
    throw new InvalidArgumentError('a dollar amount above 0, or none');
  return n;
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

export function registerItemGates(item: Command): void {
  item
    .command('approve')
    .argument('[id]', 'work item id (default: the item of this worktree)')
    .description('approve the gate an item waits at (a person decides: agents ask first)')
    .option('--gate <gate>', 'the gate to approve (default: the one the item waits at)')
    .option(
      '--digest <digest>',
      "approve only if the gate's document is still this revision (the digest `view artifact --json` printed)",
    )
    .option(
      '--request <n>',
      "the gate request you decided on (the item's gate_request; default: the one open now)",
      requestNumber,
    )
    .option('--json', 'print the API answer')
    .action(
      (
        given: string | undefined,
        opts: { gate?: string; digest?: string; request?: number; json?: boolean },
      ) =>
        itemVerb(async () => {
          const c = new JigClient();
          const id = await itemId(c, 'approve', given);
          const { gate, request } = await gateOf(c, id, opts, 'approve');
          const res = await approveGate(c, id, gate, { digest: opts.digest, request });
          if (opts.json) printJson(res);
          else printAct(`approved ${gate} on ${res.id}; ${nowPhrase(res)}`, nextFor(res));
          return EXIT_OK;
        }),
    );

  item
    .command('reject')
    .argument('[id]', 'work item id (default: the item of this worktree)')
    .description("reject the gate an item waits at; the chain goes back with --note as the agent's steer")
    .option('--note <text>', 'what to change (required)')
    .option('--gate <gate>', 'the gate to reject (default: the one the item waits at)')
    .option('--node <node>', "node to go back to (default: the gate's reject_to)")
    .option(
      '--request <n>',
      "the gate request you decided on (the item's gate_request; default: the one open now)",
      requestNumber,
    )
    .option('--json', 'print the API answer')
    .action(
      (
        given: string | undefined,
        opts: { note?: string; gate?: string; node?: string; request?: number; json?: boolean },
      ) =>
        itemVerb(async () => {
          const note = opts.note?.trim();
          if (!note) throw new BadArgument('reject needs --note TEXT: what should change');
          const c = new JigClient();
          const id = await itemId(c, 'reject', given);
          const { gate, request } = await gateOf(c, id, opts, 'reject');
          const res = await rejectGate(c, id, gate, note, { node: opts.node, request });
          if (opts.json) printJson(res);
          else {
            const back = res.current_node ? `, back at ${res.current_node}` : '';
            printAct(`rejected ${gate} on ${res.id}; ${nowPhrase(res)}${back}`, nextFor(res));
          }
          return EXIT_OK;
        }),
    );

  item
    .command('raise-budget')
    .argument('[id]', 'work item id (default: the item of this worktree)')
    .description("raise the item's own dollar cap; an item stopped on its budget runs again")
    .option(
      '--usd <usd|none>',
      'the new cap in dollars, above what the item has spent; none drops the own cap',
      usdOrNone,
    )
    .option('--json', 'print the API answer')
    .action((given: string | undefined, opts: { usd?: number | 'none'; json?: boolean }) =>
      itemVerb(async () => {
        if (opts.usd === undefined)
          throw new BadArgument('raise-budget needs --usd N (dollars) or --usd none');
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
      }),
    );
}
