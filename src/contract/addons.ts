import { z } from 'zod';
import { AddonDigest } from './addon-digest.js';
import { Identifier } from './config/ids.js';

export { AddonDigest };

/*
 * Add-ons (spec: Add-on manifest; docs/addons.md): the manifest an add-on carries in
 * `.jig/addon.json`, the `.jig/collection.json` of a collection that lists add-ons, and the two
 * files in the config dir that say what this instance installed: `addons.yaml` (what the operator
 * chose) and `addons.lock` (what was fetched: commits and content digests). Copying both files to
 * another home reproduces the instance.
 */

/** Where an add-on's manifest sits, relative to its directory (the spec's `.service/addon.json`). */
export const ADDON_MANIFEST_PATH = '.jig/addon.json';
/** Where a collection's index sits, relative to its root. */
export const COLLECTION_INDEX_PATH = '.jig/collection.json';
/** The version numbers add-ons are written against (`requires.jig`). */
export const ADDON_VERSION_MAX = 64;

/** SemVer 2.0.0 without build metadata: MAJOR.MINOR.PATCH, optional `-pre.release` identifiers. */
export const ADDON_VERSION_PATTERN =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?$/;
/** `requires.jig`: `MAJOR` or `MAJOR.MINOR`, digits without leading zeros. */
export const REQUIRES_JIG_PATTERN = /^(0|[1-9]\d*)(\.(0|[1-9]\d*))?$/;

const HttpsUrl = z
  .url({ error: 'is not a URL' })
  .regex(/^https:\/\//, { error: 'must start with `https://`' })
  .describe('a URL starting with https://');

const UniqueIds = z
  .array(Identifier)
  .refine((a) => new Set(a).size === a.length, { error: 'lists a name twice' });

export const AddonRequires = z
  .strictObject({
    jig: z
      .string({ error: 'is required: the Jig version this add-on is written for (`2` or `2.0`)' })
      .regex(REQUIRES_JIG_PATTERN, { error: 'is not `MAJOR` or `MAJOR.MINOR` (digits, no leading zeros)' })
      .describe('`2` means any 2.x; `2.4` means at least 2.4.0 and below 3.0.0'),
    harnesses: UniqueIds.optional().describe('harness ids harnesses.yaml must define'),
    profiles: UniqueIds.optional().describe("instance agent profiles the add-on's tasks select by bare name"),
  })
  .describe('what the add-on needs from the instance; no other key is accepted');

export const AddonManifest = z
  .strictObject({
    $schema: z.string().optional(),
    name: Identifier.describe("equals the add-on's entry name in collection.json"),
    version: z
      .string()
      .max(ADDON_VERSION_MAX, { error: `is longer than ${ADDON_VERSION_MAX} characters` })
      .regex(ADDON_VERSION_PATTERN, {
        error: 'is not a SemVer version without build metadata (MAJOR.MINOR.PATCH[-pre.release])',
      }),
    description: z.string().optional(),
    author: z
      .strictObject({
        name: z.string().min(1, { error: 'is empty' }),
        email: z.email({ error: 'is not an email address' }),
        url: HttpsUrl.optional(),
      })
      .optional(),
    homepage: HttpsUrl.optional(),
    license: z.string().optional(),
    requires: AddonRequires,
  })
  .describe('Jig add-on manifest (.jig/addon.json)');
export type AddonManifest = z.infer<typeof AddonManifest>;

export const CollectionEntry = z.strictObject({
  name: Identifier,
  source: z
    .string()
    .regex(/^\.\/addons\/[a-z][a-z0-9_-]*$/, { error: 'is not `./addons/<name>`' })
    .describe('the add-on directory inside the collection: ./addons/<name>'),
  description: z.string().optional(),
});

export const CollectionIndex = z
  .strictObject({
    $schema: z.string().optional(),
    name: Identifier,
    description: z.string().optional(),
    owner: z.strictObject({ name: z.string().min(1), email: z.email({ error: 'is not an email address' }) }),
    addons: z
      .array(CollectionEntry)
      .refine((a) => new Set(a.map((e) => e.name)).size === a.length, { error: 'lists an add-on twice' }),
  })
  .describe('Jig collection index (.jig/collection.json)');
export type CollectionIndex = z.infer<typeof CollectionIndex>;

/** `config/addons.yaml`: the collections this instance knows and the add-ons it installed. */
export const AddonsFile = z
  .strictObject({
    collections: z
      .record(
        Identifier,
        z.strictObject({
          source: z.string().min(1).describe('a directory, or a git URL (https, ssh, file://)'),
          ref: z.string().min(1).optional().describe('git branch, tag or commit to follow'),
          auto_update: z.boolean().default(false).describe("apply its add-ons' updates that add no reach"),
        }),
      )
      .default({}),
    addons: z
      .record(
        Identifier.describe('the namespace: the add-on name, or the `--as` alias'),
        z.strictObject({
          addon: Identifier.describe("the add-on's name in its collection"),
          collection: Identifier,
          enabled: z.boolean().default(true),
          auto_update: z.boolean().default(false).describe('apply updates that add no reach'),
        }),
      )
      .default({}),
  })
  .describe('Jig addons.yaml');
export type AddonsFile = z.infer<typeof AddonsFile>;

/** `config/addons.lock`: what each installed namespace runs, pinned (JSON). */
export const AddonsLock = z
  .strictObject({
    lock_version: z.literal(1),
    collections: z
      .record(Identifier, z.strictObject({ commit: z.string().nullable().describe('null: a directory') }))
      .default({}),
    addons: z
      .record(
        Identifier,
        z.strictObject({
          addon: Identifier,
          collection: Identifier,
          version: z.string(),
          commit: z.string().nullable().describe("the collection's commit it was read at; null: a directory"),
          digest: AddonDigest,
          installed_at: z.string(),
        }),
      )
      .default({}),
  })
  .describe('Jig addons.lock');
export type AddonsLock = z.infer<typeof AddonsLock>;
