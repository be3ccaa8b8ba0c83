import type { RepoView } from '../contract/repos.js';
import {
  checkRepoForge,
  connectRepo as connect,
  disconnectRepo as disconnect,
  listRepos as list,
  probeRepo as probe,
} from '../contract/routes/repos.js';
import { ApiError, type JigClient } from './http.js';

export interface ConnectInput {
  path: string;
  test_command?: string;
  setup_command?: string;
  default_chain?: string;
  name?: string;
}

/** Connects (created: true) or re-probes a connected repo (created: false). */
export async function connectRepo(
  c: JigClient,
  body: ConnectInput,
): Promise<{ repo: RepoView; created: boolean }> {
  const res = await c.send(connect, { body });
  if (res.status !== 200 && res.status !== 201) throw new ApiError(res.status, res.body);
  return { repo: res.body, created: res.status === 201 };
}
export const probeRepo = (c: JigClient, path: string) => c.call(probe, { body: { path } });
export const listRepos = (c: JigClient) => c.call(list);
export const disconnectRepo = (c: JigClient, path: string) => c.call(disconnect, { query: { path } });

/** Whether merge requests can work from a connected repository (no call to the forge). */
export const checkForge = (c: JigClient, path: string) => c.call(checkRepoForge, { query: { path } });
