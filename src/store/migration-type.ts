import type { Kysely } from 'kysely';

/** One numbered, forward-only schema change, run in its own transaction. */
export interface Migration {
  version: number;
  name: string;
  up(db: Kysely<unknown>): Promise<void>;
}
