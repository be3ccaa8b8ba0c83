import { parse } from 'yaml';
import { COMPONENT_REF_PATTERN, IDENTIFIER_MAX } from '../../../contract/config/ids.js';
import type { ChainOpOf } from '../../../contract/drafts/chain-ops.js';
import { chainFileOf, isObj, OpRefused, type Obj, type OpDocs } from './context.js';

/*
 * Creating and deleting a chains draft's own chain file (spec drafts.md, `new_chain` and
 * `delete_chain`). The file itself is the unit: a new chain starts from a copy of another chain as
 * its author last left it (their draft when they have one), and a deletion takes effect on publish.
 */

/**
 * What a chain starts as without `from`: no nodes. A chain needs at least one, so the draft shows
 * that problem until the first `add_node`; no `description` is written, as an empty one is what
 * `set_field` removes.
 */
const emptyChain = (): Obj => ({ nodes: [] });

/**
 * The chain `from` as it stands now: its draft's text when it has one, else its published file; an
 * add-on's chain (`release:ship`) as the add-on has it, names qualified (a copy to your library).
 */
function sourceChain(docs: OpDocs, from: string): { chain: Obj; text: string | null } {
  if (from.includes(':')) {
    const found = docs.addonSource('chains', from);
    if ('known' in found)
      throw new OpRefused(
        `from \`${from}\` names no add-on chain (installed: ${found.known.map((k) => `\`${k}\``).join(', ') || 'none'})`,
      );
    if (!isObj(found.value)) throw new OpRefused(`add-on chain \`${from}\` is not a mapping`);
    return { chain: found.value, text: null };
  }
  const drafted = docs.draftedChain(from);
  let value: unknown;
  let text: string | null = null;
  if (typeof drafted === 'string') {
    try {
      value = parse(drafted);
      text = drafted;
    } catch {
      throw new OpRefused(`chain \`${from}\` has a draft whose YAML does not parse: fix it first`);
    }
  } else if (drafted === undefined) {
    // A copy: the working copy of another chain's file must stay as published.
    value = structuredClone(docs.doc(chainFileOf(from)));
    text = docs.text(chainFileOf(from));
  }
  // drafted === null: that chain's draft deletes it, so there is nothing to copy.
  if (value === null || value === undefined) throw new OpRefused(`from \`${from}\` names no chain`);
  if (!isObj(value)) throw new OpRefused(`chain \`${from}\` is not a mapping: there is no chain to copy`);
  return { chain: value, text };
}

export function newChain(docs: OpDocs, op: ChainOpOf<'new_chain'>): undefined {
  const file = docs.chainFile();
  if (docs.doc(file) !== null) {
    throw new OpRefused(
      `chain \`${docs.key}\` already exists: new_chain is only for a key with no file and no draft`,
    );
  }
  if (docs.opened) {
    throw new OpRefused(
      `chain \`${docs.key}\` already has a draft: new_chain is only for a key with no file and no draft`,
    );
  }
  let chain = emptyChain();
  // A copy is written over its source's text, so it keeps the source's comments and layout.
  let over: string | null = null;
  if (op.from !== undefined) {
    const from = op.from;
    if (from.length > IDENTIFIER_MAX || !COMPONENT_REF_PATTERN.test(from)) {
      throw new OpRefused(
        `from ${JSON.stringify(from)} is not a chain id: a lowercase letter, then lowercase letters, digits, \`_\` or \`-\` (an add-on's: \`<namespace>:<id>\`)`,
      );
    }
    // The id is the file stem: a copied `id:` would name the source chain, so it is left out.
    ({ chain, text: over } = sourceChain(docs, from));
    delete chain.id;
  }
  docs.setDoc(file, chain, over);
  return undefined;
}

export function deleteChain(docs: OpDocs, _op: ChainOpOf<'delete_chain'>): undefined {
  const file = docs.chainFile();
  if (docs.doc(file) === null) throw new OpRefused(`chain \`${docs.key}\` has no file to delete`);
  docs.setDoc(file, null);
  return undefined;
}
