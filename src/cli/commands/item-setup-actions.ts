import { JigClient } from '../../client/http.js';
import { getItem } from '../../client/items.js';
import { patchItem } from '../../client/item-setup.js';
import { AttachmentKind } from '../../contract/items.js';
import { EXIT_OK, printJson } from '../output.js';
import { inRepo } from '../in-repo.js';
import { setNodeOverride, type NodeOverrideOpts } from './item-node-override.js';
import { BadArgument, describeValues, type PolicyAssignment } from './item-setup-args.js';
import { setupVerb } from './item-verb.js';

/*
 * `jig item set-chain|set-attachments|set-overrides|set-node-override|set-policy`: an item's setup,
 * as the original's CLI has it. Each goes through `PATCH /api/work-items/:id`, except a node
 * override on an item whose chain is materialized (item-node-override.ts says why).
 */

/** `jig item set-chain`. */
export function itemSetChain(
  id: string,
  opts: { chain?: string; template?: string; json?: boolean },
): Promise<void> {
  return setupVerb(async () => {
    if (opts.chain && opts.template && opts.chain !== opts.template)
      throw new BadArgument('--chain and --template name different chains; pass one');
    const chain = opts.chain ?? opts.template;
    if (!chain) throw new BadArgument('set-chain needs --chain ID');
    const res = await patchItem(new JigClient(), id, { chain });
    if (opts.json) printJson(res);
    else process.stdout.write(`${res.id} runs chain ${res.chain}\n`);
    return EXIT_OK;
  });
}

/** `jig item set-after`. */
export function itemSetAfter(
  id: string,
  opts: { after?: string[]; none?: boolean; json?: boolean },
): Promise<void> {
  return setupVerb(async () => {
    if (opts.none && opts.after) throw new BadArgument('pass --after ID or --none, not both');
    if (!opts.none && !opts.after) throw new BadArgument('set-after needs --after ID (repeatable) or --none');
    const res = await patchItem(new JigClient(), id, { after: opts.none ? [] : (opts.after ?? []) });
    if (opts.json) printJson(res);
    else {
      const after = opts.none ? 'nothing' : (opts.after ?? []).join(', ');
      process.stdout.write(`${res.id} comes after ${after} (${res.status})\n`);
    }
    return EXIT_OK;
  });
}

/** `jig item set-attachments`. */
export function itemSetAttachments(
  id: string,
  opts: { spec?: string; plan?: string; drop?: AttachmentKind[]; json?: boolean },
): Promise<void> {
  return setupVerb(async () => {
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
  });
}

/** `jig item set-overrides`. */
export function itemSetOverrides(
  id: string,
  opts: { model?: string; effort?: string; escalateModel?: string; clear?: boolean; json?: boolean },
): Promise<void> {
  return setupVerb(async () => {
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
  });
}

/** `jig item set-node-override`. */
export function itemSetNodeOverride(id: string, opts: NodeOverrideOpts): Promise<void> {
  return setupVerb(() => setNodeOverride(new JigClient(), id, opts));
}

/** `jig item set-policy`. */
export function itemSetPolicy(
  id: string,
  opts: { policy?: PolicyAssignment[]; clear?: boolean; json?: boolean },
): Promise<void> {
  return setupVerb(async () => {
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
  });
}
