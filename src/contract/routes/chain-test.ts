import { z } from 'zod';
import { ChainTestReport, ChainTestScript } from '../chain-test.js';
import { ErrorBodySchema } from '../error-body.js';
import { Recording, RecordingName } from '../recording.js';
import { defineRoute } from '../route.js';
import { ChainIdParams } from '../templates.js';
import { ChainUnresolved } from './templates.js';

export const ChainTestBody = ChainTestScript.extend({
  repo: z
    .string()
    .min(1)
    .optional()
    .describe('the connected repository the test clones (its path); default: the only one connected'),
  draft: z
    .boolean()
    .default(false)
    .describe(
      'test the chain’s open draft (docs/drafts.md) instead of its published text: its files laid over the copied config',
    ),
  replay: RecordingName.optional().describe(
    'replay a recording of the home (`recordings/<name>.json`): agents and gates answered from it, the divergences reported',
  ),
  recording: Recording.optional().describe('replay this recording (a file from elsewhere), sent whole'),
});

export const testChain = defineRoute({
  operationId: 'testChain',
  method: 'POST',
  path: '/api/templates/chains/:id/test',
  summary:
    'Walk a chain with the real engine in a throwaway home and server, each agent answered and each gate decided by the script; answer the path taken, the sessions and what the script expected (docs/chain-tests.md)',
  tags: ['templates'],
  params: ChainIdParams,
  body: ChainTestBody,
  responses: {
    200: ChainTestReport,
    404: ErrorBodySchema,
    409: ErrorBodySchema,
    422: ChainUnresolved,
    503: ErrorBodySchema,
  },
});
