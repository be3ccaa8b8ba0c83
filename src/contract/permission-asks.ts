import { z } from 'zod';

export const AskState = z.enum(['pending', 'allowed', 'denied', 'expired']);
export type AskState = z.infer<typeof AskState>;

/** How long an ask waits for a person before it counts as denied. */
export const ASK_TIMEOUT_S = 600;

/**
 * An agent's request to use a tool its launch neither granted nor denied (Claude Code's
 * `--permission-prompt-tool`), waiting for a person to allow or deny it.
 */
export const PermissionAsk = z.object({
  id: z.string(),
  work_item_id: z.string(),
  session: z.string().nullable(),
  tool_name: z.string(),
  /** The tool call's input as the agent sent it (a command line, a file path, …). */
  input: z.record(z.string(), z.unknown()),
  tool_use_id: z.string().nullable(),
  state: AskState,
  /** The person's note with the answer (the agent reads it with a denial). */
  note: z.string().nullable(),
  created_at: z.string(),
  decided_at: z.string().nullable(),
  /** When a pending ask counts as denied. */
  expires_at: z.string(),
});
export type PermissionAsk = z.infer<typeof PermissionAsk>;

export const AskBody = z
  .object({
    tool_name: z.string().min(1).max(200),
    input: z.record(z.string(), z.unknown()),
    tool_use_id: z.string().min(1).max(200).optional(),
    session: z.string().min(1).max(64).optional(),
  })
  .strict();

export const AnswerBody = z
  .object({
    decision: z.enum(['allow', 'deny']),
    note: z.string().trim().max(2000).optional(),
  })
  .strict();

export const AsksQuery = z.object({ state: AskState.optional() }).strict();
export const AsksAnswer = z.object({ asks: z.array(PermissionAsk) });

/** What Claude Code's permission prompt tool answers (its documented result shape). */
export const PromptToolAnswer = z.union([
  z.object({ behavior: z.literal('allow'), updatedInput: z.record(z.string(), z.unknown()) }),
  z.object({ behavior: z.literal('deny'), message: z.string() }),
]);

/** A CLI's pre-tool hook asking Jig's permission gate about one tool call (`jig admin permission-hook`). */
export const CheckBody = z
  .object({
    /** The task whose launch installed the hook (its policy applies). */
    task: z.string().min(1).max(500),
    /** The provider id of the CLI (its `permission_hook.tool_names` turn its tool name into Jig's). */
    cli: z.string().min(1).max(64),
    tool_name: z.string().min(1).max(200),
    input: z.record(z.string(), z.unknown()),
    tool_use_id: z.string().min(1).max(200).optional(),
  })
  .strict();

export const GateRule = z.enum(['deny_tools', 'grant', 'no_allowlist', 'listed', 'not_listed', 'unresolved']);

/**
 * The gate's answer. `none`: no opinion (the CLI decides as it would alone; a hook told to fail
 * closed denies an `unresolved` one). `ask`: a person decides; `ask` is the permission ask to wait on.
 */
export const CheckAnswer = z.object({
  decision: z.enum(['allow', 'deny', 'none', 'ask']),
  rule: GateRule,
  reason: z.string(),
  /** Jig's names for the tool. */
  tools: z.array(z.string()),
  ask: PermissionAsk.nullable(),
});
export type CheckAnswer = z.infer<typeof CheckAnswer>;
