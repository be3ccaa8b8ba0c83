import { z } from 'zod';

/** The event kinds a notification can be sent for: the item needs a person, or it ended. */
export const NOTIFY_EVENTS = [
  'gate_requested',
  'work_item_needs_human',
  'permission_asked',
  'work_item_completed',
  'work_item_cancelled',
  'work_item_abandoned',
] as const;
export const NotifyEvent = z.enum(NOTIFY_EVENTS);
export type NotifyEvent = z.infer<typeof NotifyEvent>;

/** How the message is shaped: Jig's JSON, or what a Slack, Discord or Telegram webhook takes. */
export const NotifyFormat = z.enum(['json', 'slack', 'discord', 'telegram']);
export type NotifyFormat = z.infer<typeof NotifyFormat>;

/**
 * An http(s) URL without a user or password in it: fetch refuses those, with an error that quotes
 * the whole URL, and a URL's credentials belong in its token path or the secret anyway. The
 * refinements give the server's messages; a refinement does not reach the JSON Schema editors
 * read, so the same rule goes there as a pattern (an http or https scheme, then an authority
 * without `@`), and a test holds the two to the same verdicts (notify.test.ts).
 */
const WebUrl = z
  .string()
  .url()
  // `.url()` does not stop the refinement from running on what it refused: parse again, safely.
  .refine(
    (u) => URL.canParse(u) && ['https:', 'http:'].includes(new URL(u).protocol),
    'an http:// or https:// URL',
  )
  .refine(
    (u) => !URL.canParse(u) || (new URL(u).username === '' && new URL(u).password === ''),
    'no user or password in the URL',
  )
  .meta({ pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^/?#@\\\\\\s]+([/?#\\\\][\\s\\S]*)?$' });

/** `notify.yaml`: where Jig tells a person that an item needs them (docs/notifications.md). */
export const NotifyFile = z
  .object({
    enabled: z.boolean().default(false),
    url: WebUrl.nullable()
      .default(null)
      .describe('the webhook Jig POSTs to; a secret: never shown back by the API'),
    format: NotifyFormat.default('json'),
    chat_id: z
      .union([z.string().min(1), z.number().int()])
      .nullable()
      .default(null)
      .describe('format: telegram — the chat the bot writes to'),
    secret: z
      .string()
      .min(16)
      .nullable()
      .default(null)
      .describe('HMAC-SHA256 key: the body is signed in X-Jig-Signature; never shown back'),
    base_url: WebUrl.nullable()
      .default(null)
      .describe("the board's address as people reach it, for links in messages"),
    events: z
      .array(NotifyEvent)
      .default(['gate_requested', 'work_item_needs_human'])
      .describe('the event kinds that send a message'),
  })
  .strict()
  // The superRefine below, as JSON Schema says it (editors do not see a refinement).
  .meta({
    if: { properties: { format: { const: 'telegram' } }, required: ['format'] },
    then: { required: ['chat_id'], properties: { chat_id: { not: { type: 'null' } } } },
  })
  .superRefine((f, ctx) => {
    if (f.format === 'telegram' && f.chat_id === null)
      ctx.addIssue({
        code: 'custom',
        path: ['chat_id'],
        message: 'format telegram needs the chat_id to write to',
      });
  });
export type NotifyFile = z.infer<typeof NotifyFile>;
