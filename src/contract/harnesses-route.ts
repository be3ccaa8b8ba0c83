import { z } from 'zod';
import { ProblemSchema } from './reload.js';

export const HarnessesAnswer = z.object({
  harnesses: z.array(
    z.object({
      id: z.string(),
      provider: z.string(),
      enabled: z.boolean(),
      executable: z.string().describe('the command launched: the entry’s `executable`, else the provider’s'),
      path: z.string().nullable().describe('where it resolves on this machine; null when not installed'),
      installed: z.boolean(),
      version: z.string().nullable().describe('its `--version` answer; null when it gives none'),
      verified_with: z.string().nullable().describe('the CLI version Jig’s definition was checked against'),
    }),
  ),
  problems: z.array(ProblemSchema),
});

export const ProvidersAnswer = z.object({
  providers: z.array(
    z.object({
      id: z.string(),
      display_name: z.string(),
      command: z.array(z.string()),
      capabilities: z.object({
        system_prompt: z.enum(['flag', 'inline']).describe('how Jig’s contract and steering reach the CLI'),
        model: z.boolean(),
        effort: z.boolean(),
        permission_mode: z.boolean(),
        allowed_tools: z.boolean(),
        denied_tools: z.boolean(),
        permission_prompt: z
          .boolean()
          .describe("undecided calls can reach a person through Jig's prompt tool"),
        permission_hook: z
          .enum(['codex_config', 'cursor_hooks_file'])
          .nullable()
          .describe("how Jig's pre-tool hook is installed, enforcing tool policy the CLI has no flags for"),
        resume: z.boolean(),
      }),
      table: z
        .object({
          steer: z
            .enum(['resume', 'restart'])
            .describe(
              'after a pause and a steer: the same CLI session goes on, or a new one starts with the brief',
            ),
          tool_control: z
            .enum(['flags', 'hook', 'none'])
            .describe(
              "how a task's tool lists are held: the CLI's flags, Jig's pre-tool hook, or not (such a launch is refused)",
            ),
          cost: z
            .enum(['reported', 'estimated', 'none'])
            .describe(
              "the CLI's own cost, its tokens at the price table's rates, or no figure (unpriced unless launch_usd)",
            ),
          mcp: z
            .boolean()
            .describe("the launch can hand the CLI Jig's MCP server (its permission prompt tool)"),
          sandbox: z
            .boolean()
            .describe("its hosts are declared, so a jailed task's proxy lets it reach its model API"),
        })
        .describe('the comparison table of docs/harnesses.md'),
      rate_limit_signal: z.boolean(),
      usage_reported: z.enum(['live', 'at_end', 'none']),
      model_pattern: z.array(z.string()),
      verified_with: z.object({ package: z.string(), version: z.string(), date: z.string() }).nullable(),
      source: z.string().nullable(),
    }),
  ),
  problems: z.array(ProblemSchema),
});
