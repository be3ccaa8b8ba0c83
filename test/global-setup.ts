import type { TestProject } from 'vitest/node';
import { openStore } from '../src/store/database.js';
import { startPostgres } from './helpers/postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The postgres project's server (`postgres://postgres@127.0.0.1:PORT`) and template database. */
    jigTestPostgres: { url: string; template: string };
  }
}

/*
 * The postgres project's setup (vitest.config.ts): one PostgreSQL server for the whole run and a
 * database migrated once as the template every test home's database is copied from (a copy takes a
 * quarter of a second; migrating takes longer). Handed to that project's tests only, through
 * provide/inject: the sqlite project's workers never see it.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const s = await startPostgres();
  if ('skip' in s)
    throw new Error(`the postgres project needs PostgreSQL, and it cannot start here: ${s.skip}`);
  const template = 'jig_template';
  const store = await openStore(await s.createDatabase(template));
  await store.close();
  project.provide('jigTestPostgres', { url: s.url.replace(/\/postgres$/, ''), template });
  return () => s.stop();
}
