import { z } from 'zod';
import { ChainNode } from './components.js';
import { Identifier } from './ids.js';
import { ScopePolicy } from './scope-policy.js';

/** `chains/<id>.yaml`, as written. The id is the file stem; a chain cannot extend another chain. */
export const ChainFile = z
  .object({
    id: Identifier.optional().describe('defaults to the file stem, and must equal it when set'),
    description: z.string().optional().describe('one line shown in the chain list'),
    policy: ScopePolicy.optional().describe("the chain's policy layer"),
    nodes: z.array(ChainNode).min(1, { error: 'a chain needs at least one node' }),
  })
  .strict();
export type ChainFile = z.infer<typeof ChainFile>;
