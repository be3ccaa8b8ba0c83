import { z } from 'zod';

/** What Jig reads of its own package.json: its name and version (the rest is npm's business). */
export const PackageManifest = z.object({ name: z.string().min(1), version: z.string().min(1) }).loose();
export type PackageManifest = z.infer<typeof PackageManifest>;

/** The manifest in a package.json text, or null when the text is not one. */
export function parseManifest(text: string): PackageManifest | null {
  try {
    const m = PackageManifest.safeParse(JSON.parse(text));
    return m.success ? m.data : null;
  } catch {
    return null;
  }
}
