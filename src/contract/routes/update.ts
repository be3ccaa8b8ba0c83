import { z } from 'zod';
import { CHANNELS } from '../update.js';
import { defineRoute } from '../route.js';

export const UpdateChannel = z
  .enum(CHANNELS)
  .describe('release channel: stable reads the `latest` dist-tag; rc, beta and alpha add their own tag');

/** What the release feed said about this package, as last checked (or nothing checked yet). */
export const UpdateAnswer = z.object({
  package: z.string().describe('the npm package name checked'),
  running: z.string().describe('version of the server process'),
  installed: z.string().describe('version installed on disk (differs from running until a restart)'),
  channel: UpdateChannel,
  feed: z
    .string()
    .describe(
      'the release feed URL (JIG_UPDATE_FEED, else the npm registry), without its password or a credential in its query',
    ),
  checked_at: z
    .string()
    .nullable()
    .describe('ISO 8601 time of the last check on this channel; null before any'),
  latest: z.string().nullable().describe('newest version the channel offers; null before a check'),
  update_available: z.boolean().describe('latest is newer than installed'),
  dist_tags: z.record(z.string(), z.string()).describe('every dist-tag the feed published'),
  apply: z
    .string()
    .nullable()
    .describe(
      "the command that applies what this answer found, run on the server's machine: `jig admin update --yes` (with `--channel` off stable) when the channel offers a newer version, else `jig admin restart` when the version installed is not the one running; null when there is nothing to apply",
    ),
});
export type UpdateAnswer = z.infer<typeof UpdateAnswer>;

export const UpdateQuery = z.object({ channel: UpdateChannel.default('stable') });
/** The body may be left out (curl -X POST): the stable channel is checked. */
export const UpdateCheckBody = z
  .object({ channel: UpdateChannel.default('stable') })
  .strict()
  .nullish();

export const getUpdate = defineRoute({
  operationId: 'getUpdate',
  method: 'GET',
  path: '/api/update',
  summary: 'The last update check of a channel (cached; nothing is fetched): installed and newest versions',
  tags: ['update'],
  query: UpdateQuery,
  responses: { 200: UpdateAnswer },
});

export const checkUpdate = defineRoute({
  operationId: 'checkUpdate',
  method: 'POST',
  path: '/api/update/check',
  summary:
    'Ask the release feed for the newest version of a channel now; 502 `update_feed_failed` when the feed does not answer in time or answers something else',
  tags: ['update'],
  body: UpdateCheckBody,
  responses: { 200: UpdateAnswer },
});
