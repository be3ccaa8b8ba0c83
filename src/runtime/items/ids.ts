import { randomBytes } from 'node:crypto';

// Lowercase letters and digits without look-alikes (0/o, 1/l/i): easy to read aloud and type.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A short, URL-safe, unguessable-enough work item id: 8 characters, about 39 bits. */
export function newItemId(): string {
  const bytes = randomBytes(8);
  let id = '';
  for (const b of bytes) id += ALPHABET[b % ALPHABET.length];
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
