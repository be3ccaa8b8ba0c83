/**
 * The value a record holds under `key` itself, never one it inherits: a name from a request
 * (`constructor`, `toString`) must not find Object.prototype's methods in a parsed file's record.
 */
export function own<T>(rec: Readonly<Record<string, T>> | undefined | null, key: string): T | undefined {
  return rec != null && Object.hasOwn(rec, key) ? rec[key] : undefined;
}
