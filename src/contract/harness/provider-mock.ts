import { z } from 'zod';

/*
 * How to point a CLI at Jig's mock model server on loopback instead of its vendor's API: what
 * `jig admin harnesses test ID` and the end-to-end tests need to run it offline. Data like the rest
 * of a provider, so a CLI added in YAML is testable the same way. Values take `{mock_url}` (the
 * mock's `http://127.0.0.1:PORT`) and `{home}` (the private HOME the test run gets).
 */

/** A path relative to HOME that cannot climb out of it (login files, the mock's config files). */
export const HomePath = z
  .string()
  .regex(/^(?!\/)(?!.*(?:^|\/)\.\.(?:\/|$)).+$/, 'a path below HOME, without ..');

const EnvName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/);

export const MOCK_APIS = ['anthropic', 'openai_responses', 'chat_completions', 'gemini'] as const;

export const ProviderMock = z
  .object({
    api: z
      .enum(MOCK_APIS)
      .describe(
        'the wire API the CLI speaks to the model: Anthropic Messages, OpenAI Responses, OpenAI Chat Completions or Gemini',
      ),
    model: z.string().min(1).optional().describe('the model the run asks for (passed as the launch model)'),
    env: z
      .record(EnvName, z.string())
      .default({})
      .describe('variables for the run: base URL, a placeholder key, config folders under {home}'),
    args: z
      .array(z.string())
      .default([])
      .describe('argv written at the `extra` slot (a custom provider given as flags)'),
    files: z
      .array(
        z
          .object({
            path: HomePath.describe('written below the private HOME before the run'),
            text: z.string().describe('its contents (placeholders filled)'),
          })
          .strict(),
      )
      .default([])
      .describe('config files the CLI reads its provider or trust settings from'),
    allowed_tools: z
      .array(z.string().min(1))
      .optional()
      .describe('tools the run grants (its shell tool), for a CLI that denies what is not granted'),
    permission_mode: z
      .string()
      .min(1)
      .optional()
      .describe('the permission mode the run uses, when the default would stop to ask'),
  })
  .strict();
export type ProviderMock = z.infer<typeof ProviderMock>;
