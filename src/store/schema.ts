import type { Generated } from 'kysely';

/** Tables as Kysely sees them; each migration that adds a table adds its interface here. */
export interface JigMetaTable {
  key: string;
  value: string;
}

export interface SchemaVersionTable {
  version: number;
  applied_at: string;
  id: Generated<number>;
}

export interface Database {
  jig_meta: JigMetaTable;
  jig_schema: SchemaVersionTable;
}
