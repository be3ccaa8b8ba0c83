import { z } from 'zod';

const JailKind = z.enum(['bubblewrap', 'podman', 'docker']);

/** Whether one kind of sandbox can run on the server's machine, and why not. */
export const SandboxKindCheck = z
  .object({
    kind: JailKind,
    works: z.boolean(),
    why: z.string().nullable().describe('what is missing when it does not work'),
  })
  .strict();

/** `GET /api/sandbox`: what this machine can jail tasks with (docs/sandbox.md). */
export const SandboxAnswer = z
  .object({
    kinds: z.array(SandboxKindCheck),
    best: JailKind.nullable().describe('the first that works: bubblewrap, then podman, then docker'),
    instance_default: z
      .string()
      .nullable()
      .describe("the kind policy.yaml's `sandbox` names (none when it sets none)"),
    checked_at: z.string().describe('when the machine was looked at (kept a minute)'),
  })
  .strict();
export type SandboxAnswer = z.infer<typeof SandboxAnswer>;
