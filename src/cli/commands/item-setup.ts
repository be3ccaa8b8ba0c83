import { Option, type Command } from 'commander';
import { JigClient } from '../../client/http.js';
import { getItem } from '../../client/items.js';
import { patchItem } from '../../client/item-setup.js';
import { AttachmentKind } from '../../contract/items.js';
import { EXIT_OK, printJson } from '../output.js';
import { inRepo } from '../in-repo.js';
import { setNodeOverride, type NodeOverrideOpts } from './item-node-override.js';
import {
  BadArgument,
  collectKind,
  collectPolicy,
  describeValues,
  setupVerb,
  type PolicyAssignment,
} from './item-setup-args.js';

/*
 * `jig item set-chain|set-attachments|set-overrides|set-node-override|set-policy`: an item's setup,
 * as the original's CLI has it. Each goes through `PATCH /api/work-items/:id`, except a node
 * override on an item whose chain is materialized (item-node-override.ts says why).
 */

/** Options that appear on every setup verb. */
function verb(parent: Command, name: string, about: string): Command {
  return parent.command(name).argument('<id>', 'work item id').description(about);
}

export function registerItemSetup(item: Command): void {
  verb(item, 'set-chain', 'change the chain of an item that has not started')
    .option('--chain <id>', 'the chain to run')
    .option('--template <id>', 'older name of --chain')
    .option('--json', 'print the API answer')
    .action((id: string, opts: { chain?: string; template?: string; json?: boolean }) =>
      setupVerb(async () => {
        if (opts.chain && opts.template && opts.chain !== opts.template)
          throw new BadArgument('--chain and --template name different chains; pass one');
        const chain = opts.chain ?? opts.template;
        if (!chain) throw new BadArgument('set-chain needs --chain ID');
        const res = await patchItem(new JigClient(), id, { chain });
        if (opts.json) printJson(res);
        else process.stdout.write(`${res.id} runs chain ${res.chain}\n`);
        return EXIT_OK;
      }),
    );

  verb(item, 'set-attachments', 'attach, replace or drop the spec or plan of an item')
    .option('--spec <file>', 'attach this spec (a file inside the repository)')
    .option('--plan <file>', 'attach this plan (a file inside the repository)')
    .option('--drop <kind>', 'drop the spec or plan attachment (repeatable)', collectKind)
    .option('--json', 'print the API answer')
    .action((id: string, opts: { spec?: string; plan?: string; drop?: AttachmentKind[]; json?: boolean }) =>
      setupVerb(async () => {
        const given = { spec: opts.spec, plan: opts.plan };
        const drop = opts.drop ?? [];
        for (const kind of drop)
          if (given[kind] !== undefined)
            throw new BadArgument(`--${kind} and --drop ${kind} contradict; pass one`);
        if (drop.length === 0 && !opts.spec && !opts.plan)
          throw new BadArgument('set-attachments needs --spec FILE, --plan FILE or --drop KIND');
        const c = new JigClient();
        const attachments: Partial<Record<AttachmentKind, { path: string } | null>> = {};
        for (const kind of drop) attachments[kind] = null;
        if (opts.spec || opts.plan) {
          // Paths are sent relative to the item's repository, where the server reads them.
          const { repo } = await getItem(c, id);
          for (const kind of AttachmentKind.options) {
            const file = given[kind];
            if (!file) continue;
            try {
              attachments[kind] = { path: inRepo(file, repo) };
            } catch (err) {
              throw new BadArgument(`--${kind} ${file}: ${(err as Error).message}`);
            }
          }
        }
        const res = await patchItem(c, id, { attachments });
        if (opts.json) printJson(res);
        else {
          const kinds = Object.keys(res.attachments);
          process.stdout.write(`attachments of ${res.id}: ${kinds.length > 0 ? kinds.join(', ') : 'none'}\n`);
        }
        return EXIT_OK;
      }),
    );

  verb(item, 'set-overrides', "set the item's model, effort and escalation model (replaces the override)")
    .option('--model <id>', 'model for every agent task of the item')
    .option('--effort <level>', 'effort for every agent task of the item')
    .option('--escalate-model <id>', 'model for escalation turns')
    .option('--clear', 'drop the item override')
    .option('--json', 'print the API answer')
    .action(
      (
        id: string,
        opts: { model?: string; effort?: string; escalateModel?: string; clear?: boolean; json?: boolean },
      ) =>
        setupVerb(async () => {
          const values: Record<string, string> = {};
          if (opts.model !== undefined) values.model = opts.model;
          if (opts.effort !== undefined) values.effort = opts.effort;
          if (opts.escalateModel !== undefined) values.escalate_model = opts.escalateModel;
          for (const [k, v] of Object.entries(values))
            if (v.trim() === '') throw new BadArgument(`--${k.replace('_', '-')} is empty`);
          if (opts.clear && Object.keys(values).length > 0)
            throw new BadArgument('--clear drops the override; pass it alone or pass the values to set');
          if (!opts.clear && Object.keys(values).length === 0)
            throw new BadArgument('set-overrides needs --model, --effort, --escalate-model or --clear');
          const res = await patchItem(new JigClient(), id, { agent_overrides: values });
          if (opts.json) printJson(res);
          else process.stdout.write(`overrides of ${res.id}: ${describeValues(res.agent_overrides)}\n`);
          return EXIT_OK;
        }),
    );

  const nodeOverride = verb(item, 'set-node-override', 'set the model or effort of one node of an item')
    .option('--node <id>', 'the node (required)')
    .option('--model <id>', "model for the node's agent tasks")
    .option('--effort <level>', "effort for the node's agent tasks")
    .option('--clear', "drop the node's override before setting the values given (alone: drop it)")
    .option('--json', 'print the API answer');
  // The original's other node settings, which this Jig's engine does not act on: refused by name
  // (not as unknown options) so the person learns nothing was stored.
  const unsupported: [attr: string, flags: string[]][] = [
    ['extraPrompt', ['--extra-prompt <text>']],
    ['autoEscalate', ['--auto-escalate', '--no-auto-escalate']],
    ['autoEscalateStuck', ['--auto-escalate-stuck', '--no-auto-escalate-stuck']],
    ['autoEscalateDelayS', ['--auto-escalate-delay-s <n>']],
  ];
  for (const [, flags] of unsupported)
    for (const f of flags) nodeOverride.addOption(new Option(f).hideHelp());
  nodeOverride.action((id: string, opts: NodeOverrideOpts, cmd: Command) =>
    setupVerb(async () => {
      const used = unsupported.find(([attr]) => cmd.getOptionValueSource(attr) === 'cli');
      if (used)
        throw new BadArgument(
          `${used[1].map((f) => f.split(' ')[0]).join('/')} is not supported by this version of Jig ` +
            '(a node override sets --model and --effort); nothing was changed',
        );
      return setNodeOverride(new JigClient(), id, opts);
    }),
  );

  verb(item, 'set-policy', "replace the item's own policy override (every scope it sets)")
    .option(
      '--policy <PATH.FIELD=VALUE>',
      'one cap or limit for one scope, VALUE read as YAML (repeatable), e.g. verification.max_attempts=3',
      collectPolicy,
    )
    .option('--clear', 'drop the policy override')
    .option('--json', 'print the API answer')
    .action((id: string, opts: { policy?: PolicyAssignment[]; clear?: boolean; json?: boolean }) =>
      setupVerb(async () => {
        const policy = opts.policy ?? [];
        if (opts.clear && policy.length > 0)
          throw new BadArgument('--clear drops the whole override; pass it alone or pass --policy values');
        if (!opts.clear && policy.length === 0)
          throw new BadArgument('set-policy needs --policy PATH.FIELD=VALUE (repeatable) or --clear');
        const override: Record<string, unknown> = {};
        for (const { key, value } of policy) {
          if (Object.hasOwn(override, key)) throw new BadArgument(`--policy ${key} is given twice`);
          override[key] = value;
        }
        const res = await patchItem(new JigClient(), id, { policy_override: override });
        if (opts.json) printJson(res);
        else process.stdout.write(`policy override of ${res.id}: ${describeValues(res.policy_override)}\n`);
        return EXIT_OK;
      }),
    );
}
