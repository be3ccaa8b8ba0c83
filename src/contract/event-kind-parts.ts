import { z } from 'zod';

/** The building blocks of the event catalogue's payloads (event-kinds.ts and its parts). */
export const str = z.string();
export const num = z.number();
export const bool = z.boolean();
export const nullableStr = z.string().nullable();

/** One kind of event: what it means, and the payload it carries. */
export const kind = <P extends z.ZodType>(meaning: string, payload: P) => ({ meaning, payload });
