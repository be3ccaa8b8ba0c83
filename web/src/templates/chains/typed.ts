/*
 * Text typed in the inspector read as the value it stands for, as YAML would read it: the lists,
 * mappings, numbers and booleans `set_field` sends.
 */

export type Scalar = string | number | boolean;
const isScalar = (v: unknown): v is Scalar =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** Items of a list written one per line: blank lines dropped, a number kept a number when the list held numbers. */
export function linesToList(text: string, numbers: boolean): Scalar[] {
  const items = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  return numbers ? items.map((l) => (Number.isNaN(Number(l)) ? l : Number(l))) : items;
}

export const isScalarList = (v: unknown): v is Scalar[] => Array.isArray(v) && v.every(isScalar);
export const isScalarMap = (v: unknown): v is Record<string, Scalar> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every(isScalar);

/**
 * A value typed for a key that holds none yet, read as YAML would: `30` a number, `true` a
 * boolean, and a JSON list or mapping (`["a", "b"]`, `{"K": "v"}`) one, so a list or mapping key
 * can be set from nothing; anything else is the text.
 */
export function typedText(text: string): unknown {
  const t = text.trim();
  if (t === 'true' || t === 'false') return t === 'true';
  if (t !== '' && !Number.isNaN(Number(t))) return Number(t);
  if (t.startsWith('[') || t.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(t);
      return parsed;
    } catch {
      return text;
    }
  }
  return text;
}
