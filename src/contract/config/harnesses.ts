import { z } from 'zod';
import { Identifier } from './ids.js';
import { FallbackEntry } from './task.js';

/** The harness a task that names none runs on (and escalation, while policy names none). */
export const DEFAULT_HARNESS = 'claude';

/**
 * A provider definition's id: one Jig ships (`defaults/harnesses/<id>.yaml`) or the home's own
 * (`config/harnesses/<id>.yaml`). Not a fixed list: a CLI added as YAML is named like a shipped one,
 * and a name that loads no definition is refused at launch (and by `jig admin harnesses test`).
 */
export const Provider = z
  .string()
  .regex(/^[a-z][a-z0-9_-]*$/, 'a provider id: lower-case letters, digits, - and _')
  .describe('a provider definition: defaults/harnesses/<id>.yaml or config/harnesses/<id>.yaml');
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
    launch_usd: z
      .number()
      .positive()
      .optional()
      .describe(
        "dollars each launch counts when the CLI tells neither cost nor tokens (its provider's usage_reported: none); without it such sessions are unpriced",
      ),
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
