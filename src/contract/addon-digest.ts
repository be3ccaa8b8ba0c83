import { z } from 'zod';

/** A content digest: `sha256:` and 64 hex digits, over the add-on's files (docs/addons.md). */
export const AddonDigest = z.string().regex(/^sha256:[0-9a-f]{64}$/, { error: 'is not `sha256:<64 hex>`' });
export type AddonDigest = z.infer<typeof AddonDigest>;
