import { z } from 'zod';
import { AddonDigest } from './addon-digest.js';
import { AddonProblem } from './addon-review.js';
import { Identifier } from './config/ids.js';

/* The answers of the add-on routes (/api/addons…, docs/addons.md). */

export const InstalledAddon = z.object({
  namespace: Identifier,
  addon: Identifier.describe("the add-on's name in its collection"),
  collection: Identifier,
  version: z.string(),
  description: z.string().nullable(),
  commit: z.string().nullable().describe("the collection's commit it was read at; null for a directory"),
  digest: AddonDigest,
  installed_at: z.string(),
  enabled: z.boolean(),
  auto_update: z.boolean(),
  state: z
    .enum(['ok', 'disabled', 'problems', 'missing'])
    .describe('`missing`: the pinned version is not in the content store yet (it is fetched at start)'),
  problems: z.array(AddonProblem),
  chains: z.array(z.string()).describe('`<namespace>:<id>` of its chains'),
  components: z.object({
    nodes: z.array(z.string()),
    steps: z.array(z.string()),
    tasks: z.array(z.string()),
    steering: z.array(z.string()),
  }),
  profiles: z.array(z.string()),
  skills: z.array(z.string()),
});
export type InstalledAddon = z.infer<typeof InstalledAddon>;

export const CollectionAddon = z.object({
  name: Identifier,
  description: z.string().nullable(),
  version: z.string().nullable().describe('the version its manifest names; null when it cannot be read'),
  installed_as: z.array(Identifier).describe('namespaces it is installed under'),
});

export const CollectionInfo = z.object({
  name: Identifier,
  description: z.string().nullable(),
  source: z.string().describe('a directory, or a git URL'),
  kind: z.enum(['dir', 'git']),
  ref: z.string().nullable(),
  auto_update: z.boolean(),
  commit: z.string().nullable().describe('the commit addons.lock pins; null for a directory'),
  addons: z.array(CollectionAddon),
  error: z.string().nullable().describe('why the collection could not be read now'),
});
export type CollectionInfo = z.infer<typeof CollectionInfo>;

export const AddonsAnswer = z.object({
  addons: z.array(InstalledAddon),
  collections: z.array(CollectionInfo),
});
export type AddonsAnswer = z.infer<typeof AddonsAnswer>;

export const CollectionAddBody = z.strictObject({
  source: z.string().min(1).describe('a directory, `owner/repo`, or a git URL (https, ssh, file://)'),
  ref: z.string().min(1).optional().describe('git branch, tag or commit to follow (git sources)'),
});
export const CollectionPatchBody = z.strictObject({ auto_update: z.boolean() });

export const ReviewInstallBody = z.strictObject({
  addon: Identifier,
  collection: Identifier,
  as: Identifier.optional().describe('install under this namespace instead of the add-on name'),
});
export const InstallBody = ReviewInstallBody.extend({
  review: z.string().min(1).describe('the `review` digest of the review read'),
});
export const UpdateBody = z.strictObject({
  review: z.string().min(1).describe('the `review` digest of the update review read'),
});
export const AddonPatchBody = z
  .strictObject({ enabled: z.boolean().optional(), auto_update: z.boolean().optional() })
  .refine((b) => b.enabled !== undefined || b.auto_update !== undefined, {
    error: 'send `enabled`, `auto_update` or both',
  });

export const UpdateCheck = z.object({
  namespace: Identifier,
  addon: Identifier,
  collection: Identifier,
  from: z.string(),
  to: z.string(),
  action: z.enum(['update', 'downgrade']),
  reach_added: z
    .array(z.string())
    .describe('reach the update adds: an auto-update applies only an update that adds and removes none'),
  reach_removed: z.array(z.string()).describe('reach the update takes away (a gate, a limit)'),
});
export const UpdatesAnswer = z.object({
  updates: z.array(UpdateCheck),
  errors: z.array(z.object({ collection: Identifier, message: z.string() })),
});
export type UpdatesAnswer = z.infer<typeof UpdatesAnswer>;

export const AutoUpdateAnswer = z.object({
  applied: z.array(z.object({ namespace: Identifier, from: z.string(), to: z.string() })),
  skipped: z.array(z.object({ namespace: Identifier, to: z.string(), reason: z.string() })),
  errors: z.array(z.object({ collection: Identifier, message: z.string() })),
});
export type AutoUpdateAnswer = z.infer<typeof AutoUpdateAnswer>;
