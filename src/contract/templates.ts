import { z } from 'zod';
import { LIBRARY_SECTIONS } from './config/library.js';
import { ProblemSchema } from './reload.js';

/** `GET /api/templates/chains`: every chain file, as on disk now. */
export const ChainListEntry = z.object({
  id: z.string(),
  file: z.string().describe('chains/<id>.yaml'),
  description: z.string().nullable(),
  nodes: z.number().int().describe('nodes of the chain, gates included (extends expanded when it resolves)'),
  gates: z.number().int().describe('how many of those nodes are gates'),
  resolves: z.boolean().describe('the file resolves against the library with no problem'),
  running: z.boolean().describe('a version of this chain is running: new items can use it'),
  problems: z.array(ProblemSchema),
});
export type ChainListEntry = z.infer<typeof ChainListEntry>;
export const ChainListAnswer = z.object({ chains: z.array(ChainListEntry) });
export type ChainListAnswer = z.infer<typeof ChainListAnswer>;

export const ChainIdParams = z.object({ id: z.string().min(1).describe('chain id (file stem)') });

export const SourcedValue = z.object({
  value: z.unknown(),
  source: z.string().describe('`chain`, `library:<section>.<name>`, `policy` or `default`'),
  recovery: z.literal(true).optional(),
});

/** `GET /api/templates/chains/{id}/resolved`. */
export const ResolvedChainAnswer = z.object({
  id: z.string(),
  resolved: z
    .record(z.string(), z.unknown())
    .describe('the chain with extends expanded, `main` steps and each component’s canonical `path`'),
  sources: z
    .record(z.string(), z.record(z.string(), SourcedValue))
    .describe('{path: {field: {value, source}}} for each node, step, task and fix loop'),
  warnings: z.array(ProblemSchema),
  running: z.boolean(),
});
export type ResolvedChainAnswer = z.infer<typeof ResolvedChainAnswer>;

export const LibrarySectionName = z.enum(LIBRARY_SECTIONS);

export const LibraryComponent = z.object({
  ref: z.string().describe('`<section>.<name>`, such as `tasks.implementer`'),
  section: LibrarySectionName,
  name: z.string(),
  written: z.unknown().describe('the component as written in library.yaml'),
  resolved: z
    .unknown()
    .describe('with its own extends expanded; null when it does not resolve (steering: as written)'),
  used_by: z.object({
    chains: z.array(z.string()).describe('chains built on it, directly or through another component'),
    repos: z.array(z.string()).describe('repos whose `steering:` names it (steering only)'),
  }),
  problems: z.array(ProblemSchema).describe('problems at this component in library.yaml'),
});
export type LibraryComponent = z.infer<typeof LibraryComponent>;

/** `GET /api/templates/library`. */
export const LibraryAnswer = z.object({
  file: z.literal('library.yaml'),
  model: z.unknown().describe('the file as written, when it passes the file schema; else null'),
  components: z.array(LibraryComponent),
  problems: z.array(ProblemSchema).describe('every problem of library.yaml, checked against the other files'),
  warnings: z.array(ProblemSchema),
});
export type LibraryAnswer = z.infer<typeof LibraryAnswer>;

export const LibraryRefParams = z.object({
  ref: z.string().min(1).describe('`<section>.<name>`: `tasks.implementer`, `nodes.verification`'),
});

export const SteeringPreviewQuery = z.object({
  chain: z.string().min(1).describe('chain id'),
  task: z.string().min(1).describe('canonical path of an agent task, such as `spec.main.author`'),
  repo: z.string().min(1).optional().describe('path of a connected repo, for its `steering:`'),
});

export const SteeringPart = z.object({
  source: z.enum(['jig', 'repo', 'task']),
  name: z.string(),
  origin: z.string().describe('`jig:contract` or `library:steering.<name>`'),
  text: z.string(),
});

/** `GET /api/templates/steering/preview`: what an agent task reads at launch, in order. */
export const SteeringPreviewAnswer = z.object({
  chain: z.string(),
  task: z.string(),
  repo: z.string().nullable(),
  parts: z.array(SteeringPart).describe("Jig's contract, then the repo's steering, then the task's"),
  missing: z
    .array(z.object({ source: z.enum(['repo', 'task']), name: z.string() }))
    .describe('steering names no library entry answers'),
  text: z.string().describe('the parts joined, as the agent reads them'),
});
export type SteeringPreviewAnswer = z.infer<typeof SteeringPreviewAnswer>;

const ProviderChoice = z.object({ model: z.string(), effort: z.string().nullable() });

/** `GET /api/harnesses/profiles`. */
export const ProfilesAnswer = z.object({
  harnesses: z.array(
    z.object({
      id: z.string(),
      provider: z.string(),
      enabled: z.boolean(),
      executable: z.string().nullable(),
      defaults: z.record(z.string(), z.string().nullable()),
    }),
  ),
  profiles: z.array(
    z.object({
      name: z.string(),
      written_as: z
        .enum(['providers', 'model_map'])
        .describe('`providers:` per provider, or the older `model:` map with one `effort`'),
      providers: z
        .record(z.string(), ProviderChoice)
        .describe('per provider, the model and effort a task on a harness of that provider runs with'),
      fallback: z.array(z.record(z.string(), z.string())),
    }),
  ),
  problems: z
    .array(ProblemSchema)
    .describe('problems of harnesses.yaml; the lists are empty when it does not load'),
});
export type ProfilesAnswer = z.infer<typeof ProfilesAnswer>;
