import type { LibraryComponent } from '../../../../src/contract/templates.js';

/*
 * The other library components one builds on: each `extends` it names (anywhere inside it: a node's
 * tasks extend library tasks) and each steering entry it names. A name the library lacks is left
 * out; the component's problems already say so.
 */

function names(v: unknown, out: { extends: Set<string>; steering: Set<string> }): void {
  if (Array.isArray(v)) {
    for (const x of v) names(x, out);
    return;
  }
  if (typeof v !== 'object' || v === null) return;
  for (const [k, x] of Object.entries(v)) {
    if (k === 'extends' && typeof x === 'string') out.extends.add(x);
    else if (k === 'steering' && Array.isArray(x)) {
      for (const s of x) if (typeof s === 'string') out.steering.add(s);
    } else names(x, out);
  }
}

export function buildsOn(c: LibraryComponent, all: readonly LibraryComponent[]): string[] {
  const found = { extends: new Set<string>(), steering: new Set<string>() };
  names(c.written, found);
  const refs: string[] = [];
  for (const other of all) {
    if (other.ref === c.ref) continue;
    const named =
      other.section === 'steering' ? found.steering.has(other.name) : found.extends.has(other.name);
    if (named) refs.push(other.ref);
  }
  return refs;
}
