/**
 * The value a record holds under `key` itself, never one it inherits: a name from a request
 * (`constructor`, `toString`) must not find Object.prototype's methods in a parsed file's record.
 */
export function own<T>(rec: Readonly<Record<string, T>> | undefined | null, key: string): T | undefined {
  return rec != null && Object.hasOwn(rec, key) ? rec[key] : undefined;
}

/**
 * Sets `key` as the record's own property, even `__proto__` (an assignment would replace the
 * record's prototype instead and keep no key): a key from a request or a file is data, never a link.
 */
export function setOwn<T>(rec: Record<string, T>, key: string, value: NoInfer<T>): void {
  Object.defineProperty(rec, key, { value, writable: true, enumerable: true, configurable: true });
}
