import type { HealthAnswer } from '../contract/health.js';
import type { ReloadAnswer } from '../contract/reload.js';
import { ApiError, type JigClient } from './http.js';

export function getHealth(client: JigClient): Promise<HealthAnswer> {
  return client.call<HealthAnswer>('GET', '/api/health');
}

/** Rereads the config files; `refused` is non-empty when a file did not load (HTTP 422). */
export async function reloadConfig(client: JigClient): Promise<ReloadAnswer & { detail?: string }> {
  const res = await client.request<ReloadAnswer & { detail?: string }>('POST', '/api/apply/reload');
  if (res.status === 200 || res.status === 422) return res.body;
  throw new ApiError(res.status, res.body);
}
