import type { z } from 'zod';

/*
 * Reads a zod schema's structure so a problem about an unknown key can list the keys that are
 * allowed there (for "did you mean"). zod 4 keeps the structure in `_zod.def`.
 */

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  discriminator?: string;
  getter?: () => z.ZodType;
}
// zod 4's own definition of a schema, read for the few fields the walk below needs.
const defOf = (s: z.ZodType): Def => s._zod.def;

function unwrap(s: z.ZodType, value: unknown): z.ZodType {
  for (;;) {
    const d = defOf(s);
    if (
      d.innerType &&
      ['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional'].includes(d.type)
    ) {
      s = d.innerType;
    } else if (d.type === 'pipe' && d.in) s = d.in;
    else if (d.type === 'lazy' && d.getter) s = d.getter();
    else if (d.type === 'union' && d.options) {
      s = pickOption(d, value) ?? s;
      if (defOf(s).type === 'union') return s;
    } else return s;
  }
}

function pickOption(d: Def, value: unknown): z.ZodType | undefined {
  const opts = d.options ?? [];
  if (d.discriminator && value && typeof value === 'object') {
    const want = (value as Record<string, unknown>)[d.discriminator];
    for (const o of opts) {
      const shape = defOf(unwrap(o, value)).shape;
      const lit = shape?.[d.discriminator];
      const ld = lit ? (defOf(lit) as Def & { values?: unknown[] }) : undefined;
      if (ld?.values?.includes(want)) return o;
    }
  }
  return opts.find((o) => defOf(unwrap(o, value)).type === 'object') ?? opts[0];
}

/** The schema found at `path` inside `schema`, given the data it checks; undefined when it cannot tell. */
export function schemaAt(
  schema: z.ZodType,
  data: unknown,
  path: readonly (string | number)[],
): z.ZodType | undefined {
  let s: z.ZodType = schema;
  let v: unknown = data;
  for (const seg of path) {
    s = unwrap(s, v);
    const d = defOf(s);
    const next = v && typeof v === 'object' ? (v as Record<string | number, unknown>)[seg] : undefined;
    if (d.type === 'object' && typeof seg === 'string' && d.shape?.[seg]) s = d.shape[seg];
    else if (d.type === 'array' && d.element) s = d.element;
    else if (d.type === 'record' && d.valueType) s = d.valueType;
    else return undefined;
    v = next;
  }
  return unwrap(s, v);
}

/** Keys an object schema at `path` allows, or [] when it is not an object. */
export function keysAt(schema: z.ZodType, data: unknown, path: readonly (string | number)[]): string[] {
  const s = schemaAt(schema, data, path);
  const shape = s ? defOf(s).shape : undefined;
  return shape ? Object.keys(shape) : [];
}
