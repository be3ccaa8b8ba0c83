import { createHash } from 'node:crypto';
import { JigError } from '../../contract/errors.js';
import { findTriggerKey, type TriggerKey } from '../../store/trigger-keys.js';
import { getItem, type ItemRecord } from '../../store/work-items.js';
import { checkIntake, fileItem, KeyTaken, type IntakeDeps, type IntakeInput } from './intake.js';

/** How long a trigger's `Idempotency-Key` answers its first item. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface TriggerFiled {
  rec: ItemRecord;
  /** The key was seen within the window: this is the item its first request filed. */
  replayed: boolean;
}

/** What makes two trigger requests the same request: every field the body may carry. */
function requestDigest(input: IntakeInput): string {
  const fields = [
    input.title,
    input.repo,
    input.chain ?? null,
    input.chain_template ?? null,
    input.description,
    // Added only when sent, so a key recorded before these fields existed still matches its body.
    ...(input.members !== undefined ? [{ members: input.members }] : []),
    ...(input.after !== undefined ? [{ after: input.after }] : []),
  ];
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

async function replay(deps: IntakeDeps, earlier: TriggerKey, sha256: string): Promise<TriggerFiled> {
  if (earlier.request_sha256 !== sha256) throw new JigError('idempotency_key_reused', { key: earlier.key });
  const rec = await getItem(deps.store.db, earlier.work_item_id);
  if (!rec) throw new JigError('item_not_found', { id: earlier.work_item_id });
  return { rec, replayed: true };
}

/**
 * `POST /api/triggers`. With an `Idempotency-Key`, a sender that retries (a webhook after a
 * timeout, a CI job run twice) gets the item its first request filed, for 24 hours; the same key
 * with a different body is refused rather than silently answered with an unrelated item. The key
 * is looked up before any check, so a retry is answered even while new work is refused.
 */
export async function fileTrigger(deps: IntakeDeps, input: IntakeInput, key?: string): Promise<TriggerFiled> {
  if (key === undefined) {
    const rec = await fileItem(deps, input, checkIntake(deps, input), { source: 'trigger', by: 'trigger' });
    return { rec, replayed: false };
  }
  const sha256 = requestDigest(input);
  const since = new Date(deps.clock.now() - IDEMPOTENCY_WINDOW_MS).toISOString();
  const earlier = await findTriggerKey(deps.store.db, key, since);
  if (earlier) return replay(deps, earlier, sha256);
  const checked = checkIntake(deps, input);
  try {
    const rec = await fileItem(deps, input, checked, {
      source: 'trigger',
      by: 'trigger',
      idempotency: { key, sha256, since },
    });
    return { rec, replayed: false };
  } catch (err) {
    if (err instanceof KeyTaken) return replay(deps, err.row, sha256);
    throw err;
  }
}
