import { z } from 'zod';
import { LibraryNode, LibraryStep, LibraryTask } from './components.js';
import { Identifier } from './ids.js';

export const SteeringEntry = z
  .object({
    instructions: z.string().min(1, { error: 'steering needs instructions' }),
    description: z.string().optional(),
  })
  .strict();

export const LIBRARY_SECTIONS = ['nodes', 'steps', 'tasks', 'steering'] as const;
export type LibrarySection = (typeof LIBRARY_SECTIONS)[number];

/** `library.yaml`: reusable components by name, which chains take with `extends:`. */
export const LibraryFile = z
  .object({
    nodes: z.record(Identifier, LibraryNode).optional(),
    steps: z.record(Identifier, LibraryStep).optional(),
    tasks: z.record(Identifier, LibraryTask).optional(),
    steering: z.record(Identifier, SteeringEntry).optional(),
  })
  .strict();
export type LibraryFile = z.infer<typeof LibraryFile>;
