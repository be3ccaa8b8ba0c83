import { z } from 'zod';
import { MOCK_APIS } from './harness/provider-mock.js';
import { SessionReadout } from './harness/provider.js';

/** `POST /api/harnesses/{id}/test`: run the harness's CLI once against Jig's mock model server. */
export const HarnessTestBody = z
  .object({
    timeout_s: z
      .number()
      .int()
      .min(5)
      .max(600)
      .default(120)
      .describe('end the CLI after this long (default 120 s)'),
    keep: z
      .boolean()
      .default(false)
      .describe("keep the run's folder (private HOME and repository) under run/harness-tests/"),
  })
  .strict();

export const HarnessTestAnswer = z.object({
  harness: z.string(),
  provider: z.string(),
  ok: z.boolean().describe('true when the run ended well and Jig read everything a task needs'),
  argv: z.array(z.string()).describe('what was launched (the executable as the harness entry names it)'),
  exit_code: z.number().int().nullable(),
  signal: z.string().nullable(),
  timed_out: z.boolean(),
  duration_ms: z.number().int(),
  readout: SessionReadout.describe("what Jig's reader took from the CLI's stream"),
  cost: z
    .object({
      usd: z
        .number()
        .nullable()
        .describe('the dollar figure a task of this run would record; null: unpriced'),
      source: z
        .enum(['reported', 'estimated', 'unpriced'])
        .describe('reported by the CLI, estimated from prices.json by model, or neither'),
      model: z
        .string()
        .nullable()
        .describe('the model priced (read from the stream, else the one asked for)'),
    })
    .describe("the run's dollar figure, as Jig would record it"),
  stream: z.object({
    lines: z.number().int(),
    json_lines: z.number().int(),
    stderr_tail: z.string().describe('the last lines the CLI wrote to stderr'),
  }),
  mock: z.object({
    api: z.enum(MOCK_APIS),
    requests: z.number().int().describe('every request the CLI made to the mock'),
    model_calls: z.number().int().describe('requests that ran the agent loop (offered tools)'),
    models: z.array(z.string()).describe('the models it asked for'),
  }),
  tool_ran: z.boolean().describe('the shell command the mock model asked for ran in the repository'),
  problems: z.array(z.string()).describe('what did not come through, in words; empty when ok'),
  folder: z.string().nullable().describe('the kept folder (keep: true), else null'),
});
