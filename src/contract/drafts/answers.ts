import { z } from 'zod';
import { ProblemSchema } from '../reload.js';
import { SourcedValue } from '../templates.js';
import { draftAreas } from './areas.js';

/*
 * What the drafts routes answer (spec drafts.md, "Resources and their fields" and "The result
 * object"), written once for the server's serializer, the clients and the OpenAPI document.
 */

export const DraftAreaName = z.enum(draftAreas);

export const DraftParams = z.object({
  area: z.string().min(1).describe('chains, library, harnesses, repos, policy or intake'),
  key: z.string().min(1).describe('a chain id for chains; the area name for the others'),
});
export const DraftFileParams = DraftParams.extend({
  file: z.string().min(1).describe('file name with its folder, such as chains/default.yaml'),
});

export const DraftListEntry = z.object({
  area: DraftAreaName,
  key: z.string(),
  files: z.array(z.string()),
  changes: z.number().int().describe('rows of result.changes as of the last write'),
  problems: z.number().int().describe('rows of result.problems as of the last write'),
  updated_at: z.string().describe('last write, ISO 8601 with offset'),
});
export const DraftListAnswer = z.array(DraftListEntry);

/**
 * A problem; a library draft's also say which chain or repo it breaks and the component it comes
 * from; a settings draft's carry the keys of their area (spec drafts.md, each area's resolved answer).
 */
export const DraftProblem = ProblemSchema.extend({
  chain: z.string().nullable().optional(),
  repo: z.string().nullable().optional(),
  component: z.string().nullable().optional(),
  scope: z.string().optional().describe('policy: the group of the key (limits, loops, ...)'),
  level: z.string().optional().describe('policy: the level of a cap (work_item, nodes, steps, tasks)'),
  index: z.number().int().optional().describe("intake: the schedule's index"),
  profile: z.string().optional().describe('harnesses: the profile a launch problem comes from'),
  provider: z.string().optional().describe('harnesses: the provider a launch problem is about'),
});
export type DraftProblem = z.infer<typeof DraftProblem>;

export const DraftChangeRow = z.object({
  path: z.string().describe('canonical component path; "" for the chain itself'),
  kind: z.enum(['add', 'change', 'remove', 'rename']),
  summary: z.string(),
  fields: z.array(z.string()).optional(),
  from: z.string().optional(),
  to: z.string().optional(),
  reaches: z.array(z.string()).optional().describe('library: chains that use the component'),
  file: z.string().optional().describe('settings areas: the file the row is in'),
});
export type DraftChangeRow = z.infer<typeof DraftChangeRow>;

const Choice = z.object({ value: z.string(), summary: z.string() });

export const DraftResult = z.object({
  model: z.record(z.string(), z.unknown()).describe('per file, the newest state that parsed'),
  resolved: z
    .unknown()
    .describe(
      "a chain: the chain with extends expanded (null when it does not resolve); the library: null; a settings area: the area's own resolved answer (null when its file does not load)",
    ),
  problems: z.array(DraftProblem),
  sources: z.record(z.string(), z.record(z.string(), SourcedValue)).nullable(),
  changes: z.array(DraftChangeRow),
  impact: z
    .union([
      z.object({ running: z.number().int(), repos: z.array(z.string()) }),
      z.object({ chains: z.array(z.string()), repos: z.array(z.string()) }),
      z.object({ tasks: z.number().int(), chains: z.array(z.string()) }),
      z.object({ running: z.record(z.string(), z.number().int()) }),
    ])
    .nullable(),
  warnings: z
    .array(z.object({ file: z.string(), message: z.string() }))
    .describe('always empty: ops write over each file’s own text, so no comment is dropped'),
  policy_values: z.object({ auto_escalate_delay_s: z.number(), auto_review_attempts: z.number() }),
  choices: z.object({
    ref: z.array(Choice),
    target: z.array(Choice.extend({ waits: z.boolean() })),
    inputs: z.array(Choice),
    grants: z.array(Choice),
  }),
  yaml_error: z
    .object({
      file: z.string(),
      line: z.number().int().nullable(),
      col: z.number().int().nullable(),
      message: z.string(),
    })
    .nullable(),
});

export const DraftAnswer = z.object({
  area: DraftAreaName,
  key: z.string(),
  draft: z.boolean().describe('false: no draft is open and the files are the published ones'),
  files: z.record(z.string(), z.string().nullable()).describe('published text with the draft laid over'),
  base: z.record(z.string(), z.string().nullable()).describe('sha256 of each file when it joined'),
  published: z.record(z.string(), z.string().nullable()),
  updated_at: z.string().nullable(),
  result: DraftResult,
});

export const FragmentQuery = z.object({
  path: z.string().optional().describe("the component's canonical path"),
});
export const FragmentAnswer = z.object({ path: z.string(), text: z.string() });

export const PutFileBody = z.object({ text: z.string() }).strict();

export const OpsQuery = z.object({
  preview: z.enum(['1', 'true', '0', 'false']).optional().describe('1: answer without saving'),
});
export const OpsAnswer = DraftAnswer.extend({
  ops: z.array(z.object({ op: z.string(), result: z.unknown().optional() })),
});

export const PublishAnswer = z.object({
  published: z.array(z.string()).describe('files written (a deleted file is listed too)'),
  changes: z.array(DraftChangeRow),
  result: DraftResult,
});
