import { openStore } from '../src/store/database.js';
import { startPostgres } from './helpers/postgres.js';

/*
 * With `JIG_TEST_STORE=postgres` (`npm run test:pg`), one PostgreSQL server for the whole run and a
 * database migrated once as the template every test home's database is copied from (a copy takes a
 * quarter of a second; migrating takes longer). Without it, nothing: SQLite.
 */
export default async function setup(): Promise<(() => void) | undefined> {
  if (process.env.JIG_TEST_STORE !== 'postgres') return undefined;
  const s = await startPostgres();
  if ('skip' in s) throw new Error(`JIG_TEST_STORE=postgres, and PostgreSQL cannot start here: ${s.skip}`);
  const template = 'jig_template';
  const store = await openStore(await s.createDatabase(template));
  await store.close();
  process.env.JIG_TEST_PG_URL = s.url.replace(/\/postgres$/, '');
  process.env.JIG_TEST_PG_TEMPLATE = template;
  return () => s.stop();
}
