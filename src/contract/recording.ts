import { z } from 'zod';
import { ChainTestReport, ChainTestStep, GateDecision } from './chain-test.js';
import { ResolvedChain } from './config/chain-model.js';

/*
 * A recording of a real run (issue 51, docs/chain-tests.md): one portable JSON file under the
 * home's `recordings/` with what each session of an item did (its answer, the files it changed,
 * its stream) and each gate decision, so `jig chain test --replay` can answer an edited chain's
 * agents from it and say where the chain went another way.
 */

export const RecordedTokens = z.object({
  input: z.number().int(),
  output: z.number().int(),
  cache_read: z.number().int(),
  cache_write: z.number().int(),
});

export const RecordedSession = z.object({
  task: z.string(),
  attempt: z.number().int().describe('1 for the task’s first session in the item, and so on'),
  kind: z.string().describe('agent, subprocess, builtin, forge'),
  status: z.string(),
  exit_code: z.number().int().nullable(),
  harness: z.string().nullable(),
  model: z.string().nullable(),
  cost_usd: z.number().nullable(),
  tokens: RecordedTokens,
  note: z.string().nullable(),
  result: z.record(z.string(), z.unknown()).nullable().describe('the result file the task wrote'),
  document: z.string().nullable().describe('the document it wrote (the task’s artifact), when it has one'),
  files: z
    .record(z.string(), z.string().nullable())
    .nullable()
    .describe(
      'what it changed in the worktree: path → text after it (null: removed); null when not captured',
    ),
  skipped_files: z.array(z.string()).describe('changed files not kept: binary or too large'),
  stream: z.string().describe('its output (an agent CLI’s stream), the last 256 KiB'),
  started_at: z.string(),
  exited_at: z.string().nullable(),
});
export type RecordedSession = z.infer<typeof RecordedSession>;

export const RecordedGate = z.object({
  gate: z.string(),
  decision: GateDecision,
  by: z.string().describe('who decided: a person, jig (an auto review), …'),
});
export type RecordedGate = z.infer<typeof RecordedGate>;

export const Recording = z.object({
  format: z.literal('jig-recording'),
  version: z.literal(1),
  recorded_at: z.string(),
  item: z.object({
    id: z.string(),
    title: z.string(),
    chain: z.string(),
    repo: z.string(),
    status: z.string(),
    stop: z.object({ kind: z.string(), reason: z.string() }).nullable(),
  }),
  chain: ResolvedChain.nullable().describe('the chain as the item froze it (null: it never started)'),
  path: z.array(ChainTestStep).describe('where the walk went, as a chain test reports it'),
  sessions: z.array(RecordedSession),
  gates: z.array(RecordedGate),
  spent_usd: z.number(),
});
export type Recording = z.infer<typeof Recording>;

/** A recording's name: the file's, without `.json` (`<item>-<UTC time>`). */
export const RecordingName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,100}$/, 'a recording name: lowercase letters, digits, - and _');

export const RecordingSummary = z.object({
  name: RecordingName,
  item: z.string(),
  title: z.string(),
  chain: z.string(),
  status: z.string(),
  recorded_at: z.string(),
  sessions: z.number().int(),
  bytes: z.number().int(),
});
export type RecordingSummary = z.infer<typeof RecordingSummary>;

/** Where a replay went another way than the recording. */
export const Divergence = ChainTestReport.shape.divergences.element;
export type Divergence = z.infer<typeof Divergence>;
