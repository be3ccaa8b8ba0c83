import {
  CHAIN_OP_SCHEMAS,
  CHAINS_ONLY,
  LIBRARY_ONLY,
  type ChainOp,
  type ChainOpName,
} from '../../../contract/drafts/chain-ops.js';
import { addNode, addStep } from './add-node.js';
import { addTask } from './add-task.js';
import { changeBase, extend } from './bases.js';
import { deleteChain, newChain } from './chain-file.js';
import { OpRefused, type OpDocs } from './context.js';
import { resetField, setField } from './fields.js';
import { setFragment } from './fragment.js';
import { addHandler, removeHandler } from './handlers.js';
import { addComponent, copyComponent, moveToLibrary } from './library-moves.js';
import { move } from './move.js';
import { remove } from './remove.js';
import { rename } from './rename.js';

/** An op refused, with its index in the request (null: the request as a whole is malformed). */
export class OpsRefused extends Error {
  constructor(
    readonly detail: string,
    readonly op: number | null,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(detail);
  }
}

type Handlers = { [K in ChainOpName]: (docs: OpDocs, op: Extract<ChainOp, { op: K }>) => unknown };

const HANDLERS: Handlers = {
  add_node: addNode,
  add_step: addStep,
  add_task: addTask,
  add_handler: addHandler,
  remove_handler: removeHandler,
  move,
  remove,
  extend,
  change_base: changeBase,
  new_chain: newChain,
  delete_chain: deleteChain,
  set_field: setField,
  reset_field: resetField,
  rename,
  set_fragment: setFragment,
  move_to_library: moveToLibrary,
  add_component: addComponent,
  copy_component: copyComponent,
};

const isOpName = (name: string): name is ChainOpName => Object.hasOwn(CHAIN_OP_SCHEMAS, name);

/** Checks every op's name and fields before any applies: a malformed op refuses the whole request. */
export function parseOps(raw: readonly { op: string }[]): ChainOp[] {
  return raw.map((o, i) => {
    if (!isOpName(o.op)) {
      throw new OpsRefused(`ops.${i}.op: unknown op \`${o.op}\``, i);
    }
    const parsed = CHAIN_OP_SCHEMAS[o.op].safeParse(o);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const keys = issue && 'keys' in issue && Array.isArray(issue.keys) ? ` (${issue.keys.join(', ')})` : '';
      const field = issue?.path.length ? `.${issue.path.join('.')}` : '';
      throw new OpsRefused(`ops.${i}${field}: ${issue?.message ?? 'not a valid op'}${keys}`, i);
    }
    return parsed.data;
  });
}

function apply<K extends ChainOpName>(docs: OpDocs, op: Extract<ChainOp, { op: K }>): unknown {
  const handler: (docs: OpDocs, op: Extract<ChainOp, { op: K }>) => unknown = HANDLERS[op.op];
  return handler(docs, op);
}

/**
 * Applies ops in order on the documents, answering each op's result (`{op}` alone when it answers
 * nothing). An op on the wrong kind of draft, or one its handler refuses, stops the request with
 * that op's index; the caller saves nothing then.
 */
export function runOps(docs: OpDocs, ops: readonly ChainOp[]): { op: string; result?: unknown }[] {
  return ops.map((op, i) => {
    if (docs.area === 'library' && CHAINS_ONLY.includes(op.op)) {
      throw new OpsRefused(`${op.op} applies only on a chains draft`, i);
    }
    if (docs.area === 'chains' && LIBRARY_ONLY.includes(op.op)) {
      throw new OpsRefused(`${op.op} applies only on the library draft`, i);
    }
    if (docs.area === 'library' && op.op === 'rename' && op.path === '') {
      throw new OpsRefused('renaming the chain applies only on a chains draft', i);
    }
    try {
      const result = apply(docs, op);
      return result === undefined ? { op: op.op } : { op: op.op, result };
    } catch (e) {
      if (e instanceof OpRefused) throw new OpsRefused(e.detail, i, e.extra);
      throw e;
    }
  });
}
