import { randomBytes } from 'node:crypto';

// Lowercase letters and digits without look-alikes (0/o, 1/l/i): easy to read aloud and type.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

// Random bytes are drawn a pool at a time: one call to the system's generator per 64 ids rather
// than one per id, which showed in the cost of filing an item.
const POOL = 512;
let pool = Buffer.alloc(0);
let at = POOL;

/** A short, URL-safe, unguessable-enough work item id: 8 characters, about 39 bits. */
export function newItemId(): string {
  if (at + 8 > pool.length) {
    pool = randomBytes(POOL);
    at = 0;
  }
  let id = '';
  for (let i = at; i < at + 8; i++) id += ALPHABET[pool[i]! % ALPHABET.length];
  at += 8;
  return id;
}

/** `jig/<id>-<slug>`: named once at intake, so renaming the item never moves its branch. */
export function branchName(id: string, title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/g, '');
  return slug ? `jig/${id}-${slug}` : `jig/${id}`;
}
