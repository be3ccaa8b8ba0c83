import { listHarnesses as harnesses, listProviders as providers } from '../contract/routes/harnesses.js';
import type { JigClient } from './http.js';

export const listHarnesses = (c: JigClient) => c.call(harnesses);
export const listProviders = (c: JigClient) => c.call(providers);
