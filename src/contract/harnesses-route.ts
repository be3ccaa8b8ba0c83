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
      rate_limit_signal: z.boolean(),
      usage_reported: z.enum(['live', 'at_end']),
      model_pattern: z.array(z.string()),
      verified_with: z.object({ package: z.string(), version: z.string(), date: z.string() }).nullable(),
      source: z.string().nullable(),
    }),
  ),
  problems: z.array(ProblemSchema),
});
