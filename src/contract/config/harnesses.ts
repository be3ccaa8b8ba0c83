import { z } from 'zod';
import { Identifier } from './ids.js';
import { FallbackEntry } from './task.js';

/** The harness a task that names none runs on (and escalation, while policy names none). */
export const DEFAULT_HARNESS = 'claude';

/** CLI adapters Jig ships. A harness entry picks one with `provider:`. */
export const PROVIDERS = ['claude', 'codex', 'gemini', 'cursor', 'opencode', 'amp', 'antigravity'] as const;
export const Provider = z.enum(PROVIDERS);
export type Provider = z.infer<typeof Provider>;

export const HarnessEntry = z
  .object({
    provider: Provider.describe('which CLI adapter drives it'),
    enabled: z.boolean().default(true).describe('false: no task launches on it'),
    executable: z
      .string()
      .min(1)
      .nullable()
      .optional()
      .describe("command on PATH or absolute path; default: the provider's"),
    defaults: z
      .record(z.string().min(1), z.string().nullable())
      .optional()
      .describe('options used when nothing more specific sets them: model, effort, permission_mode'),
  })
  .strict();
export type HarnessEntry = z.infer<typeof HarnessEntry>;

const ProviderModel = z.object({ model: z.string().min(1), effort: z.string().min(1).optional() }).strict();

/**
 * A model tier tasks pick with `profile:`. Written as `providers: {<provider>: {model, effort}}`;
 * the older `model: {<provider>: <model>}` map with one shared `effort` still loads. Mixing the
 * two is refused (checked beside the schema so the problem points at the key).
 */
export const AgentProfile = z
  .object({
    providers: z.partialRecord(Provider, ProviderModel).optional(),
    model: z.partialRecord(Provider, z.string().min(1)).optional().describe('older form: model per provider'),
    effort: z.string().min(1).optional().describe('older form: one effort for every provider'),
    fallback: z
      .array(FallbackEntry)
      .optional()
      .describe('launches to try when this one is rate limited or unavailable'),
  })
  .strict();
export type AgentProfile = z.infer<typeof AgentProfile>;

/** `harnesses.yaml`: the agent CLIs Jig launches and the agent profiles (model tiers). */
export const HarnessesFile = z
  .object({
    harnesses: z.record(Identifier, HarnessEntry).default({}),
    profiles: z.record(Identifier, AgentProfile).default({}),
  })
  .strict();
export type HarnessesFile = z.infer<typeof HarnessesFile>;
