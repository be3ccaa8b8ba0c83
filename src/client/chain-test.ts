import type { z } from 'zod';
import { testChain as route, type ChainTestBody } from '../contract/routes/chain-test.js';
import type { JigClient } from './http.js';

export const testChain = (c: JigClient, id: string, body: z.input<typeof ChainTestBody>) =>
  c.call(route, { params: { id }, body });
