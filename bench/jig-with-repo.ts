import { join } from 'node:path';
import { startServer } from './built-server.js';
import { benchRepo } from './git-repo.js';

/** A Jig server in this process on a home under `root`, with a throwaway repository connected. */
export async function startJigWithRepo(root: string): Promise<{
  jig: Awaited<ReturnType<typeof startServer>>;
  repo: string;
}> {
  const repo = benchRepo(root);
  const jig = await startServer({
    host: '127.0.0.1',
    port: 0,
    env: { JIG_SANDBOX_DEFAULT: 'none', JIG_HOME: join(root, 'home') },
  });
  const connect = await fetch(`${jig.url}/api/repos`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ path: repo, test_command: '' }),
  });
  if (connect.status !== 201) throw new Error(`connect failed: ${connect.status}`);
  return { jig, repo };
}
