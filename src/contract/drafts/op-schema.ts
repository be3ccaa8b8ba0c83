import { z } from 'zod';

/*
 * The building blocks every draft area's op schemas share. A schema checks only an op's name, its
 * keys and their JSON types; every other refusal is the op's own, answered with its index.
 */

export const str = z.string();
export const int = z.number().int();
export const mapping = z.record(z.string(), z.unknown(), { error: 'must be a mapping' });

/** One op: its literal name and its fields, no other key. */
export const op = <N extends string, S extends z.ZodRawShape>(name: N, shape: S) =>
  z.object({ op: z.literal(name), ...shape }).strict();
