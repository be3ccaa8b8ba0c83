import {
  listHarnesses as harnesses,
  listProviders as providers,
  testHarnessRoute,
} from '../contract/routes/harnesses.js';
import type { JigClient } from './http.js';

export const listHarnesses = (c: JigClient) => c.call(harnesses);
export const listProviders = (c: JigClient) => c.call(providers);

export const testHarness = (c: JigClient, id: string, body: { timeout_s?: number; keep?: boolean }) =>
  c.call(testHarnessRoute, { params: { id }, body });
