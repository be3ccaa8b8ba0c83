import { z } from 'zod';
import { HomePath, ProviderMock } from './provider-mock.js';

/*
 * A provider definition: the facts about one agent CLI, as data (`defaults/harnesses/<id>.yaml`,
 * overridden or extended by `config/harnesses/<id>.yaml`). How each launch input becomes argv,
 * and how the CLI's JSON-lines stream becomes one session readout, are both declared here, so a
 * new CLI can be pure configuration. Argv fragments take two placeholders: `{value}` (the input
 * as is) and `{csv}` (a list joined with commas); `{toml}` quotes the value as a TOML string (for
 * Codex `-c key=value`, whose value is parsed as TOML).
 */

const Regex = z.string().refine(
  (s) => {
    try {
      new RegExp(s);
      return true;
    } catch {
      return false;
    }
  },
  { message: 'not a valid regular expression' },
);

const Args = z.array(z.string()).describe('argv fragment; placeholders {value}, {csv}, {toml}');

/** A capability that takes a value: where it goes, which values it accepts, its default. */
export const ValueCapability = z
  .object({
    args: Args,
    values: z.array(Regex).optional().describe('the value must match one of these (checked at launch)'),
    default: z.string().min(1).optional().describe('used when the launch gives no value'),
  })
  .strict();
export type ValueCapability = z.infer<typeof ValueCapability>;

/** The permission mode: a value capability that can also say which of its modes skip the tool lists. */
export const PermissionModeCapability = ValueCapability.extend({
  runs_every_tool: z
    .array(Regex)
    .optional()
    .describe(
      "modes under which the CLI runs any tool whatever the tool lists say (Qwen's yolo): a launch with an allowed-tools list leaves such a mode out, so the CLI's own default mode holds the lists",
    ),
}).strict();
export type PermissionModeCapability = z.infer<typeof PermissionModeCapability>;

/** A list capability (tool names): `always` entries are merged into every launch's list. */
export const ListCapability = z
  .object({
    args: Args,
    always: z.array(z.string().min(1)).optional(),
    unrestricted: z
      .array(z.string().min(1))
      .optional()
      .describe(
        'allowed_tools only: the list granted when policy sets no allowed_tools (for a CLI that denies unlisted tools when headless)',
      ),
    grants: z
      .partialRecord(z.enum(['git-commit', 'git-rebase', 'git-push']), z.string().min(1))
      .optional()
      .describe('allowed_tools only: the tool pattern each policy grant adds to an allowed-tools list'),
  })
  .strict();
export type ListCapability = z.infer<typeof ListCapability>;

export const ContextCapability = z.discriminatedUnion('channel', [
  z
    .object({
      channel: z.literal('system_prompt').describe('the CLI takes a system-prompt flag'),
      args: Args,
    })
    .strict(),
  z
    .object({
      channel: z.literal('prompt').describe('no system-prompt flag: the context is put into the prompt'),
      template: z.string().includes('{context}').includes('{prompt}').default('{context}\n\n---\n\n{prompt}'),
    })
    .strict(),
]);
export type ContextCapability = z.infer<typeof ContextCapability>;

export const ResumeCapability = z
  .object({
    args: Args.describe('fragment with the session id as {value}'),
    via: z
      .enum(['flag', 'command_resume'])
      .default('flag')
      .describe('command_resume: the launch starts with `command_resume` instead of `command`'),
  })
  .strict();
export type ResumeCapability = z.infer<typeof ResumeCapability>;

/**
 * A CLI that runs a pre-tool hook (Codex, Cursor): Jig installs `jig admin permission-hook` as that
 * hook for a launch whose policy limits tools, and the hook asks Jig's permission gate about each
 * call (docs/review.md, "Permission asks"). `install` says how the hook reaches the CLI; the
 * hashing and file formats behind each are the CLI's own, so they are code, not data.
 */
export const PermissionHookCapability = z
  .object({
    install: z
      .enum(['codex_config', 'cursor_hooks_file'])
      .describe(
        'codex_config: -c hooks.PreToolUse plus its trust entry; cursor_hooks_file: .cursor/hooks.json in the worktree',
      ),
    tool_names: z
      .record(z.string().min(1), z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]))
      .optional()
      .describe(
        "the CLI's tool names as Jig's (Codex apply_patch is [Write, Edit]); others pass as they are",
      ),
    unhooked: z
      .record(z.string().min(1), z.object({ off: Args.optional() }).strict())
      .optional()
      .describe(
        "Jig's names of tools that never reach the hook: a policy that denies one adds its `off` arguments, or the launch is refused",
      ),
  })
  .strict();
export type PermissionHookCapability = z.infer<typeof PermissionHookCapability>;

/** Slots of the argv after the command prefix, in the order the provider lists them. */
export const SLOTS = [
  'prompt',
  'context',
  'structured_log',
  'model',
  'effort',
  'permission_mode',
  'allowed_tools',
  'deny_tools',
  'permission_prompt',
  'permission_hook',
  'resume',
  'extra',
] as const;
export const Slot = z.enum(SLOTS);
export type Slot = z.infer<typeof Slot>;

export const Capabilities = z
  .object({
    prompt: z.object({ args: Args }).strict(),
    context: ContextCapability,
    structured_log: z.object({ args: Args }).strict().optional(),
    model: ValueCapability.optional(),
    effort: ValueCapability.optional(),
    permission_mode: PermissionModeCapability.optional(),
    allowed_tools: ListCapability.optional(),
    deny_tools: ListCapability.optional(),
    /**
     * How the CLI sends a tool call its launch neither granted nor denied to Jig, for a person to
     * answer (docs/review.md, permission asks): `{value}` is the MCP config naming Jig's server.
     */
    permission_prompt: z
      .object({
        args: Args,
        env: z
          .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string())
          .optional()
          .describe(
            "environment a launch gets with it (Claude Code waits for Jig's MCP server only when told)",
          ),
      })
      .strict()
      .optional(),
    permission_hook: PermissionHookCapability.optional(),
    resume: ResumeCapability.optional(),
  })
  .strict();
export type Capabilities = z.infer<typeof Capabilities>;

// ---- reader rules --------------------------------------------------------------------------

/**
 * Where a value comes from in one event. `path` is `$.a.b.0` (dots; numbers index lists; `*`
 * sums numbers over every key of a map or item of a list). A list of paths takes the first that
 * is present. `minus` subtracts another path (Codex counts cached tokens inside input).
 */
const Path = z.string().regex(/^\$(\.[^.]+)*$/, 'a path is $ or $.key.key (dots between keys)');
export const Extract = z.union([
  Path,
  z
    .object({
      path: z.union([Path, z.array(Path).min(1)]).optional(),
      const: z.union([z.string(), z.number(), z.boolean(), z.null()]).optional(),
      minus: Path.optional(),
      as: z
        .enum([
          'value',
          'count',
          'epoch_seconds_iso',
          'epoch_ms_iso',
          'iso',
          'single_key',
          'seconds_from_now',
        ])
        .default('value')
        .describe(
          'count: length of a list; *_iso: a time as an ISO string; single_key: the only key of a map',
        ),
      regex: Regex.optional().describe('take capture group 1 of this pattern in the (string) value'),
    })
    .strict(),
]);
export type Extract = z.infer<typeof Extract>;

/** A condition on one event: the value at the path equals this, or matches / is present. */
export const Condition = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  z
    .object({
      matches: Regex.optional(),
      not_matches: Regex.optional(),
      exists: z.boolean().optional(),
      not: z.union([z.string(), z.number(), z.boolean(), z.null()]).optional(),
    })
    .strict(),
]);
export type Condition = z.infer<typeof Condition>;

export const READOUT_FIELDS = [
  'session_id',
  'model',
  'final_text',
  'error_message',
  'cost_usd_reported',
  'is_error',
  'done',
  'permission_denials',
  'tool_calls',
  'rate_limit.hit',
  'rate_limit.resets_at',
  'tokens.input',
  'tokens.output',
  'tokens.cache_read',
  'tokens.cache_write',
] as const;
export const ReadoutField = z.enum(READOUT_FIELDS);
export type ReadoutField = z.infer<typeof ReadoutField>;

export const TOKEN_FIELDS = [
  'tokens.input',
  'tokens.output',
  'tokens.cache_read',
  'tokens.cache_write',
] as const;

/** Counts a rule can add to, one event at a time. */
export const COUNT_FIELDS = ['permission_denials', 'tool_calls'] as const;

export const ReaderRule = z
  .object({
    when: z.record(Path, Condition).describe('every condition must hold for the rule to apply'),
    set: z
      .partialRecord(ReadoutField, Extract)
      .optional()
      .describe('overwrite (a missing value leaves the field)'),
    add: z
      .partialRecord(z.enum([...TOKEN_FIELDS, ...COUNT_FIELDS]), Extract)
      .optional()
      .describe(
        'accumulate: token counts, or a count of tool calls or denials (`{const: 1}` counts the event, `{path, as: count}` a list)',
      ),
    append: z
      .partialRecord(z.enum(['final_text']), Extract)
      .optional()
      .describe('append text'),
    clear: z.array(ReadoutField).optional().describe('reset these fields to their initial value'),
  })
  .strict();
export type ReaderRule = z.infer<typeof ReaderRule>;

/** Code that rules cannot express, by name (each is documented where it is implemented). */
export const READER_HOOKS = ['claude_message_usage'] as const;

export const Reader = z
  .object({
    format: z.literal('jsonl').default('jsonl'),
    hooks: z.array(z.enum(READER_HOOKS)).default([]),
    rules: z.array(ReaderRule).min(1),
    lines: z
      .array(ReaderRule)
      .default([])
      .describe(
        "rules for the log's lines that are not JSON objects (stderr, warnings): the event is the line's text, so paths are `$` (`when: {$: {matches: 'Rate limited'}}`, `{path: $, regex: '…'}`)",
      ),
  })
  .strict();
export type Reader = z.infer<typeof Reader>;

export const VerifiedWith = z
  .object({
    package: z.string().min(1),
    version: z.string().min(1),
    date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  })
  .strict();

export const ProviderDefinition = z
  .object({
    id: z.string().regex(/^[a-z][a-z0-9_-]*$/),
    kind: z.literal('cli'),
    display_name: z.string().min(1),
    command: z.array(z.string().min(1)).min(1).describe('argv prefix; the first word is the executable'),
    command_resume: z.array(z.string().min(1)).min(1).optional().describe('argv prefix for a resume'),
    order: z.array(Slot).describe('the order argv fragments are written after the prefix'),
    extra_args: z.array(z.string()).default([]).describe('written at the `extra` slot on every launch'),
    env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string()).default({}),
    capabilities: Capabilities,
    model_pattern: z
      .array(Regex)
      .optional()
      .describe('model ids this CLI accepts (documentation and checks)'),
    reader: Reader,
    rate_limit_signal: z
      .boolean()
      .default(false)
      .describe('true: its reader reports rate limits, so a launch may fall back to another harness'),
    usage_reported: z
      .enum(['live', 'at_end', 'none'])
      .default('at_end')
      .describe(
        "when the stream tells the session's usage: live (as it goes, so a cap stops it within a second), at_end (only in its last event: in a scope with a token or dollar cap such a launch runs alone, reserving what is left) or none (neither tokens nor cost: its sessions are unpriced, and a dollar cap over its tasks needs a time cap or the harness's launch_usd)",
      ),
    network: z
      .object({
        requires: z
          .array(z.string().min(1))
          .describe("hosts its tasks may reach in a sandbox: the CLI's model API and sign-in"),
      })
      .strict()
      .optional(),
    login: z
      .object({
        files: z
          .array(
            z
              .object({
                path: HomePath.describe(
                  'where the CLI keeps it, relative to HOME (`.claude/.credentials.json`)',
                ),
                env: z
                  .string()
                  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
                  .optional()
                  .describe("a variable that, when set, names the file's folder instead (CLAUDE_CONFIG_DIR)"),
                renew: z
                  .boolean()
                  .optional()
                  .describe(
                    'true: a credential the CLI rewrites when it renews the login, written back from the jail (only a JSON object of the same keys); configuration is never written back',
                  ),
              })
              .strict(),
          )
          .min(1),
      })
      .strict()
      .optional()
      .describe(
        "the files that sign the CLI in (and configure it): copied into a jailed task's HOME, and written back when the CLI renews them (docs/sandbox.md)",
      ),
    mock: ProviderMock.optional().describe(
      "how to run it against Jig's mock model server offline (jig admin harnesses test, the end-to-end tests)",
    ),
    verified_with: VerifiedWith.nullable().describe('the published CLI these facts were checked against'),
    source: z.string().optional().describe('where the facts come from, when not verified'),
  })
  .strict();
export type ProviderDefinition = z.infer<typeof ProviderDefinition>;

/** One session's stream, read: the same shape for every CLI. */
export const SessionReadout = z.object({
  session_id: z.string().nullable(),
  model: z.string().nullable(),
  tokens: z.object({
    input: z.number().describe('input tokens not served from a cache'),
    output: z.number().describe('output tokens, reasoning included'),
    cache_read: z.number(),
    cache_write: z.number(),
  }),
  cost_usd_reported: z.number().nullable(),
  rate_limit: z.object({ hit: z.boolean(), resets_at: z.string().nullable() }),
  is_error: z.boolean(),
  error_message: z.string().nullable(),
  permission_denials: z.number(),
  tool_calls: z.number().describe('tool calls the CLI made (0 where its reader does not count them)'),
  final_text: z.string().nullable(),
  done: z.boolean(),
});
export type SessionReadout = z.infer<typeof SessionReadout>;
