import type { ProbeAnswer, RepoView } from '../contract/repos.js';
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
  const res = await c.request<RepoView>('POST', '/api/repos', body);
  if (res.status !== 200 && res.status !== 201) throw new ApiError(res.status, res.body);
  return { repo: res.body, created: res.status === 201 };
}
export const probeRepo = (c: JigClient, path: string) =>
  c.call<ProbeAnswer>('POST', '/api/repos/probe', { path });
export const listRepos = (c: JigClient) =>
  c.call<{ repos: RepoView[]; suggested: { path: string; name: string } | null; warnings: string[] }>(
    'GET',
    '/api/repos',
  );
export const disconnectRepo = (c: JigClient, path: string) =>
  c.call<null>('DELETE', `/api/repos?path=${encodeURIComponent(path)}`);
