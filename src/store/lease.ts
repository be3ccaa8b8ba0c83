/*
 * What leading means to the rest of the server, apart from how PostgreSQL decides it (leader.ts): a
 * SQLite home opens its store without loading the PostgreSQL driver at all.
 */

export interface Lease {
  /** Whether this process leads now. */
  readonly leading: boolean;
  /** Gives up leadership (the lock connection ends) and stops trying; `onChange(false)` first. */
  release(): Promise<void>;
}

export type LeadChange = (leading: boolean) => Promise<void> | void;

/** One process, one store: SQLite's process always leads. */
export async function soleLease(onChange: LeadChange): Promise<Lease> {
  let leading = true;
  await onChange(true);
  return {
    get leading() {
      return leading;
    },
    async release() {
      if (!leading) return;
      leading = false;
      await onChange(false);
    },
  };
}
