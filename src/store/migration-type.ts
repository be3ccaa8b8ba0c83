import type { Kysely } from 'kysely';

/** Which database a migration runs on: most are written once for both (docs/scale-out.md). */
export interface MigrationContext {
  dialect: 'sqlite' | 'postgres';
}

/** One numbered, forward-only schema change, run in its own transaction. */
export interface Migration {
  version: number;
  name: string;
  up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void>;
}
