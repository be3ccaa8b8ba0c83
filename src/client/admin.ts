import type { HealthAnswer } from '../contract/health.js';
import type { ReloadAnswer } from '../contract/reload.js';
import { applyReload, ReloadRefused } from '../contract/routes/apply.js';
import { getHealth as health } from '../contract/routes/health.js';
import { ApiError, type JigClient } from './http.js';

export function getHealth(client: JigClient): Promise<HealthAnswer> {
  return client.call(health);
}

/** Rereads the config files; `refused` is non-empty when a file did not load (HTTP 422). */
export async function reloadConfig(client: JigClient): Promise<ReloadAnswer & { detail?: string }> {
  const res = await client.send(applyReload);
  if (res.status === 200) return res.body;
  // A 422 that still says what loaded is the answer; any other 422 (a refused body) is an error.
  const refused = ReloadRefused.safeParse(res.body);
  if (refused.success) return refused.data;
  throw new ApiError(res.status, res.body);
}
