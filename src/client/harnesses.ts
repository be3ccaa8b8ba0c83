import type { z } from 'zod';
import type { HarnessesAnswer, ProvidersAnswer } from '../contract/harnesses-route.js';
import type { JigClient } from './http.js';

export const listHarnesses = (c: JigClient) =>
  c.call<z.infer<typeof HarnessesAnswer>>('GET', '/api/harnesses');
export const listProviders = (c: JigClient) =>
  c.call<z.infer<typeof ProvidersAnswer>>('GET', '/api/harnesses/providers');
