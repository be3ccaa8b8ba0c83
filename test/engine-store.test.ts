import { afterAll, expect, it } from 'vitest';
import { cleanupAll, http, startJig } from './helpers/server.js';

afterAll(cleanupAll);

/*
 * The engine suite runs in both projects (vitest.config.ts): this says each run is on the store it
 * claims, so a postgres project whose servers quietly fell back to SQLite cannot pass for one.
 */
it("serves from the project's store", async () => {
  const jig = await startJig();
  const health = (await http(`${jig.url}/api/health`)).json;
  expect(health.store).toBe(process.env.JIG_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite');
});
