import { z } from 'zod';
import { AddonReview } from '../addon-review.js';
import {
  AddonPatchBody,
  AddonsAnswer,
  AutoUpdateAnswer,
  CollectionAddBody,
  CollectionInfo,
  CollectionPatchBody,
  InstallBody,
  InstalledAddon,
  ReviewInstallBody,
  UpdateBody,
  UpdatesAnswer,
} from '../addons-api.js';
import { Identifier } from '../config/ids.js';
import { ErrorBodySchema } from '../error-body.js';
import { defineRoute } from '../route.js';

/* Add-ons and their collections (docs/addons.md, ADR 0020). */

const NamespaceParams = z.object({ namespace: Identifier });
const CollectionParams = z.object({ name: Identifier });
const errors = { 404: ErrorBodySchema, 409: ErrorBodySchema, 422: ErrorBodySchema };

export const listAddons = defineRoute({
  operationId: 'listAddons',
  method: 'GET',
  path: '/api/addons',
  summary: 'The installed add-ons and the collections they come from',
  description:
    'Each installed add-on with its version, pin, state and what it offers (`<namespace>:<name>`); ' +
    'each collection with the add-ons it lists, read from its local copy (no fetch).',
  tags: ['addons'],
  responses: { 200: AddonsAnswer },
});

export const addCollection = defineRoute({
  operationId: 'addCollection',
  method: 'POST',
  path: '/api/addons/collections',
  summary: 'Add a collection: a directory or a git repository with .jig/collection.json',
  description:
    'Reads the collection (a git source is cloned, and its commit pinned in addons.lock) and ' +
    'records it in addons.yaml under the name its collection.json gives. Nothing is installed.',
  tags: ['addons'],
  body: CollectionAddBody,
  responses: { 201: CollectionInfo, ...errors },
});

export const patchCollection = defineRoute({
  operationId: 'patchCollection',
  method: 'PATCH',
  path: '/api/addons/collections/:name',
  summary: "Turn a collection's auto-update on or off",
  description: 'With auto-update on, updates of its add-ons that add no reach are applied on their own.',
  tags: ['addons'],
  params: CollectionParams,
  body: CollectionPatchBody,
  responses: { 200: CollectionInfo, ...errors },
});

export const removeCollection = defineRoute({
  operationId: 'removeCollection',
  method: 'DELETE',
  path: '/api/addons/collections/:name',
  summary: 'Remove a collection (refused while an add-on from it is installed)',
  tags: ['addons'],
  params: CollectionParams,
  responses: { 204: z.null().describe('no body'), ...errors },
});

export const reviewInstall = defineRoute({
  operationId: 'reviewInstall',
  method: 'POST',
  path: '/api/addons/review',
  summary: 'The review of installing an add-on: its reach and every prompt and skill',
  description:
    "Reads the add-on from its collection's pinned commit and checks it against this instance. " +
    'Install it with the `review` digest of the answer. Nothing changes.',
  tags: ['addons'],
  body: ReviewInstallBody,
  responses: { 200: AddonReview, ...errors },
});

export const installAddon = defineRoute({
  operationId: 'installAddon',
  method: 'POST',
  path: '/api/addons',
  summary: 'Install an add-on, as reviewed',
  description:
    'Applied only when `review` is the digest of the review the add-on has now (else 409 ' +
    '`addon_review_stale`: read the review again) and it has no problems (else 422). Writes the ' +
    'content store, addons.yaml and addons.lock, then reloads the configuration.',
  tags: ['addons'],
  body: InstallBody,
  responses: { 201: InstalledAddon, ...errors },
});

export const checkUpdates = defineRoute({
  operationId: 'checkUpdates',
  method: 'GET',
  path: '/api/addons/updates',
  summary: 'Which installed add-ons have another version in their collection',
  description:
    'Fetches each git collection (unless `fetch=0`) and compares versions: only a `version` ' +
    'change is an update; a lower one is a downgrade. `reach_added` says what an update adds.',
  tags: ['addons'],
  query: z.object({ fetch: z.enum(['0', '1']).default('1') }),
  responses: { 200: UpdatesAnswer },
});

export const autoUpdate = defineRoute({
  operationId: 'autoUpdate',
  method: 'POST',
  path: '/api/addons/auto-update',
  summary: 'Apply the updates auto-update may apply now',
  description:
    'For each add-on with auto-update on (its own, or its collection’s): an update that adds no ' +
    'reach is applied; one that adds reach, or a downgrade, is skipped with the reason.',
  tags: ['addons'],
  responses: { 200: AutoUpdateAnswer },
});

export const reviewUpdate = defineRoute({
  operationId: 'reviewUpdate',
  method: 'GET',
  path: '/api/addons/:namespace/update',
  summary: 'The review of updating an installed add-on to the version its collection has',
  description:
    'Reach added and removed, and each changed prompt or skill as a diff. `action: none`: nothing to update.',
  tags: ['addons'],
  params: NamespaceParams,
  query: z.object({ fetch: z.enum(['0', '1']).default('1') }),
  responses: { 200: AddonReview, ...errors },
});

export const applyUpdate = defineRoute({
  operationId: 'applyUpdate',
  method: 'POST',
  path: '/api/addons/:namespace/update',
  summary: 'Update an installed add-on, as reviewed',
  description: 'Items already running keep the version they started with.',
  tags: ['addons'],
  params: NamespaceParams,
  body: UpdateBody,
  responses: { 200: InstalledAddon, ...errors },
});

export const patchAddon = defineRoute({
  operationId: 'patchAddon',
  method: 'PATCH',
  path: '/api/addons/:namespace',
  summary: 'Enable or disable an installed add-on, or set its auto-update',
  description: 'Disabling is refused (409 `addon_in_use`) while your configuration files use its namespace.',
  tags: ['addons'],
  params: NamespaceParams,
  body: AddonPatchBody,
  responses: { 200: InstalledAddon, ...errors },
});

export const uninstallAddon = defineRoute({
  operationId: 'uninstallAddon',
  method: 'DELETE',
  path: '/api/addons/:namespace',
  summary: 'Uninstall an add-on (refused while your configuration uses its namespace)',
  description: 'Items already running keep their version until they end.',
  tags: ['addons'],
  params: NamespaceParams,
  responses: { 204: z.null().describe('no body'), ...errors },
});
