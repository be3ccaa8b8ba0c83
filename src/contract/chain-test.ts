import { z } from 'zod';
import { Finding } from './result-file.js';

/*
 * A chain test's script (issue 51, docs/chain-tests.md): what each agent task answers, attempt by
 * attempt, in place of a model. The engine runs for real; only the agents' answers are written
 * down. A task path (`implement.main.code`) maps to one answer (every attempt) or a list (attempt
 * by attempt, the last repeating).
 */

const Tokens = z.strictObject({
  input: z.number().int().nonnegative(),
  output: z.number().int().nonnegative(),
  cache_read: z.number().int().nonnegative().default(0),
  cache_write: z.number().int().nonnegative().default(0),
});

export const ScriptedAnswer = z
  .strictObject({
    status: z
      .enum(['done', 'done_with_concerns', 'failed', 'needs_context'])
      .default('done')
      .describe('the result file’s status'),
    findings: z.array(Finding).optional().describe('what a review reports (the fix loop reads them)'),
    verdict: z.string().optional().describe('a judge’s or gate reviewer’s verdict'),
    concerns: z.string().optional(),
    question: z.string().optional().describe('with needs_context: what the agent asks'),
    suggested_action: z
      .strictObject({ action: z.enum(['skip', 'retry', 'abandon']), reason: z.string() })
      .optional(),
    document: z
      .string()
      .optional()
      .describe('Markdown written where the task’s document goes ($JIG_ARTIFACT_PATH), when it has one'),
    files: z
      .record(z.string().min(1), z.string().nullable())
      .optional()
      .describe('files the agent writes (null: deletes), relative to its worktree, committed as one commit'),
    commit_message: z.string().min(1).optional(),
    tokens: Tokens.optional().describe('the session’s usage as the CLI reports it (default none)'),
    cost_usd: z.number().nonnegative().optional().describe('what the CLI reports it cost (default 0)'),
    fails: z
      .enum(['error', 'rate_limit', 'auth'])
      .optional()
      .describe('the CLI fails instead of answering: an API error, a rate limit, a bad key'),
  })
  .describe('one agent session’s answer');
export type ScriptedAnswer = z.infer<typeof ScriptedAnswer>;

export const ScriptedAnswers = z.union([ScriptedAnswer, z.array(ScriptedAnswer).min(1)]);
export type ScriptedAnswers = z.infer<typeof ScriptedAnswers>;

/** The agents' part of a script, as the scripted agent reads it (the runner writes it as JSON). */
export const AgentScript = z.strictObject({
  tasks: z.record(z.string().min(1), ScriptedAnswers).default({}),
  default: ScriptedAnswer.optional().describe('the answer of a task the script does not name'),
  strict: z
    .boolean()
    .default(false)
    .describe('a list’s last answer does not repeat: a session past its end has no answer (a replay)'),
});
export type AgentScript = z.infer<typeof AgentScript>;

/** The answer for a task's `attempt`th session (0-based): a list's last entry repeats. */
export function answerFor(script: AgentScript, taskPath: string, attempt: number): ScriptedAnswer | null {
  const a = script.tasks[taskPath] ?? script.default ?? null;
  if (a === null) return null;
  const list = Array.isArray(a) ? a : [a];
  if (script.strict && attempt >= list.length) return null;
  return list[Math.min(attempt, list.length - 1)] ?? null;
}

/** A person's decision at a gate: approve, or reject with a note (and, optionally, where to). */
export const GateDecision = z.union([
  z.literal('approve'),
  z.strictObject({ reject: z.string().min(1), node: z.string().min(1).optional() }),
]);
export type GateDecision = z.infer<typeof GateDecision>;

export const ChainTestExpect = z
  .strictObject({
    completes: z.boolean().optional().describe('the item completes (true) or stops (false)'),
    stops: z.string().min(1).optional().describe('the stop kind it ends on (gate, budget, stuck, failed, …)'),
    reaches: z.array(z.string().min(1)).optional().describe('nodes that start at least once'),
    spent_below: z.number().nonnegative().optional().describe('dollars spent, below this'),
  })
  .describe('what the run must show; a failed expectation fails the test');
export type ChainTestExpect = z.infer<typeof ChainTestExpect>;

/** What a stubbed command task (subprocess or builtin) does in place of its command. */
export const CommandStub = z
  .strictObject({
    exit_code: z.number().int().min(0).max(255).default(0).describe('0 passes, anything else fails'),
    output: z.string().default('').describe('what it prints (the session’s log, a failing test’s output)'),
  })
  .describe('one session of a stubbed command');
export type CommandStub = z.infer<typeof CommandStub>;

export const CommandStubs = z.record(z.string().min(1), z.union([CommandStub, z.array(CommandStub).min(1)]));
export type CommandStubs = z.infer<typeof CommandStubs>;

/** The stub for a command task's `attempt`th session (0-based): a list's last entry repeats. */
export function stubFor(stubs: CommandStubs, taskPath: string, attempt: number): CommandStub | null {
  const s = stubs[taskPath];
  if (s === undefined) return null;
  return Array.isArray(s) ? (s[Math.min(attempt, s.length - 1)] ?? null) : s;
}

/** A whole chain test: the agents' answers, the gates' decisions, what to expect. */
export const ChainTestScript = AgentScript.extend({
  commands: CommandStubs.default({}).describe(
    'command tasks (subprocess, builtin) answered by a stub instead of run: per task path, per session',
  ),
  title: z.string().min(1).default('Chain test'),
  gates: z
    .record(z.string().min(1), z.union([GateDecision, z.array(GateDecision).min(1)]))
    .default({})
    .describe('per gate node: its decision each time it waits (a list: in turn, the last repeating)'),
  expect: ChainTestExpect.default({}),
  timeout_s: z.number().int().min(1).max(3600).default(600),
});
export type ChainTestScript = z.infer<typeof ChainTestScript>;

/** The decision for a gate's `n`th wait (0-based), or null when the script does not decide it. */
export function decisionFor(script: ChainTestScript, gate: string, n: number): GateDecision | null {
  const d = script.gates[gate];
  if (d === undefined) return null;
  return Array.isArray(d) ? (d[Math.min(n, d.length - 1)] ?? null) : d;
}

export const ChainTestStep = z.object({
  type: z.string().describe('the event kind'),
  node: z.string().nullable(),
  detail: z.string().describe('what happened, in a line'),
});

export const ChainTestReport = z.object({
  chain: z.string(),
  ok: z.boolean().describe('the run ended and every expectation held'),
  status: z.string().describe('the test item’s status at the end'),
  stop: z.object({ kind: z.string(), reason: z.string() }).nullable(),
  ended: z
    .string()
    .describe('why the run ended: completed, stopped, a gate the script does not decide, the timeout'),
  path: z.array(ChainTestStep),
  sessions: z.array(
    z.object({
      task: z.string(),
      attempt: z.number().int(),
      status: z.string(),
      cost_usd: z.number().nullable(),
      tokens: z.number().int(),
      note: z.string().nullable().describe('why it ended as it did, when Jig knows'),
    }),
  ),
  spent_usd: z.number(),
  spent_tokens: z.number().int(),
  expectations: z.array(z.object({ expect: z.string(), ok: z.boolean(), actual: z.string() })),
  divergences: z
    .array(
      z.object({
        kind: z.enum(['no_answer', 'prompt_changed', 'route', 'unused', 'not_captured']),
        task: z.string().nullable(),
        detail: z.string(),
      }),
    )
    .describe('a replay: where the chain went another way than the recording (empty for a script)'),
});
export type ChainTestReport = z.infer<typeof ChainTestReport>;
