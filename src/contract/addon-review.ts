import { z } from 'zod';
import { AddonDigest } from './addon-digest.js';
import { Identifier } from './config/ids.js';

/*
 * The review of an add-on install or update (ADR 0020, docs/addons.md): what it can reach on this
 * instance and every text it would have agents read. The server computes it; an install or update
 * is applied only with the `review` digest of the review the operator read.
 */

/**
 * A problem in an add-on's files (the file relative to the add-on's directory), or one it would
 * bring to yours (`config/<file>`), and the line.
 */
export const AddonProblem = z.object({
  file: z
    .string()
    .describe("in the add-on's directory (`library.yaml`), or yours (`config/chains/mine.yaml`)"),
  line: z.number().int().nullable(),
  message: z.string(),
});
export type AddonProblem = z.infer<typeof AddonProblem>;

export const AddonContentItem = z.object({
  kind: z.enum(['prompt', 'steering', 'skill']),
  file: z.string().describe("the file in the add-on's directory"),
  where: z.string().describe('the component: `chain release:ship › notes › write`, `skill release:notes`'),
  text: z.string().describe('the whole text (for `removed`: the text the installed version had)'),
  change: z.enum(['new', 'changed', 'removed']),
  diff: z.string().nullable().describe('for `changed`: a unified diff from the installed version'),
});
export type AddonContentItem = z.infer<typeof AddonContentItem>;

const Version = z.object({ version: z.string(), digest: AddonDigest });

export const ADDON_ACTIONS = ['install', 'update', 'downgrade', 'none'] as const;

export const AddonReviewBody = z.object({
  namespace: Identifier.describe('where its content is named: `<namespace>:<name>`'),
  addon: Identifier,
  collection: Identifier,
  commit: z.string().nullable().describe("the collection's commit read; null for a directory"),
  action: z
    .enum(ADDON_ACTIONS)
    .describe(
      '`install`; `update`; `downgrade` (a lower version); `none` (the same version: only a version change updates)',
    ),
  from: Version.nullable().describe('the installed version (null for an install)'),
  to: Version,
  reach: z.object({
    lines: z.array(z.string()).describe('gates, merge-request steps, harnesses, models and limits'),
    added: z
      .array(z.string())
      .describe('lines the installed version does not have (all of them for an install)'),
    removed: z.array(z.string()),
  }),
  content: z
    .array(AddonContentItem)
    .describe('every prompt, steering text and skill; for an update, what changed'),
  unchanged: z.number().int().describe('content items an update leaves as they are (not listed)'),
  problems: z.array(AddonProblem).describe('why it cannot be installed here; empty when it can'),
});
export type AddonReviewBody = z.infer<typeof AddonReviewBody>;

export const AddonReview = AddonReviewBody.extend({
  review: z
    .string()
    .describe('sha256 of this review: send it back to install or update exactly what was reviewed'),
});
export type AddonReview = z.infer<typeof AddonReview>;
