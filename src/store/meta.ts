import type { Store } from './database.js';

/** True the first time a key is seen in this store: for things to tell a user once per home. */
export async function noticeOnce(store: Store, key: string): Promise<boolean> {
  const res = await store.db
    .insertInto('jig_meta')
    .values({ key: `notice:${key}`, value: new Date().toISOString() })
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}
