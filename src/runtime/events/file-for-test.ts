import type { UnitOfWork } from './event-log.js';

/**
 * For tests of the event log and what listens to it: files a bare item titled `id` with its
 * `work_item_created` event, as intake would, and answers the event's seq. Kept out of the tests
 * themselves so each file of tests need not write the item's 20 columns again.
 */
export async function fileForTest(uow: UnitOfWork, id: string): Promise<number> {
  const now = new Date().toISOString();
  await uow.db
    .insertInto('work_items')
    .values({
      id,
      title: id,
      description: '',
      status: 'paused',
      chain: 'default',
      repo: '/r',
      branch: `jig/${id}`,
      source: 'trigger',
      attachments: '{}',
      agent_overrides: '{}',
      node_overrides: '{}',
      policy_override: '{}',
      skip_nodes: '[]',
      run_epoch: 0,
      auto_gate: null,
      spent_usd: 0,
      spent_tokens: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const payload = {
    title: id,
    repo: '/r',
    chain: 'default',
    branch: `jig/${id}`,
    source: 'trigger',
    status: 'paused',
  } as const;
  return (await uow.emit({ work_item_id: id, type: 'work_item_created', by: 'trigger', payload })).seq;
}
