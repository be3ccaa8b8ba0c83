import type { NotifyFile } from '../../contract/config/notify.js';
import { graphemeCut, utf16Length } from '../text/graphemes.js';

/** What a notification says of one event: the facts every format is built from. */
export interface NotifyFacts {
  work_item_id: string;
  title: string;
  /** The event kind, or `test` for `POST /api/notify/test`. */
  type: string;
  gate: string | null;
  /** Why the item needs a person (a stop's reason, a permission ask's tool), else null. */
  reason: string | null;
  repo: string;
  /** The item's page on the board, when `base_url` is set. */
  url: string | null;
  at: string;
}

const HEADLINES: Record<string, string> = {
  gate_requested: 'waits for your approval',
  work_item_needs_human: 'needs a person',
  permission_asked: 'asks for a permission',
  work_item_completed: 'completed',
  work_item_cancelled: 'was cancelled',
  work_item_abandoned: 'was abandoned',
  test: 'is a test notification from Jig',
};

/** The item's page on the board, from `base_url` (a trailing slash or not). */
export function itemUrl(baseUrl: string | null, id: string): string | null {
  return baseUrl === null ? null : `${baseUrl.replace(/\/+$/, '')}/work-items/${id}`;
}

/**
 * One short text a person reads on a phone: what, which item, why, where. With `max` (a chat's
 * limit, in UTF-16 code units, which is how Telegram counts and never fewer than Discord's
 * characters), the headline and reason are shortened to fit, cut between grapheme clusters (an
 * emoji or an accented letter is never split into a lone half) and ended with an ellipsis; the
 * last line, the link to the item, is always whole.
 */
export function notifyText(f: NotifyFacts, max = Infinity): string {
  const what = HEADLINES[f.type] ?? f.type;
  const at = f.gate ? ` at gate ${f.gate}` : '';
  const link = f.url ?? `jig view show ${f.work_item_id}`;
  const body = [`Jig: ${f.title} ${what}${at}`, ...(f.reason ? [f.reason] : [])].join('\n');
  const room = max - link.length - 1;
  // A base_url near the limit leaves no room (never in a real config): the link, cut.
  if (room < 2) return link.length <= max ? link : shortened(link, max);
  return `${body.length <= room ? body : shortened(body, room)}\n${link}`;
}

/** `text` cut to at most `room` UTF-16 code units, the ellipsis included, between grapheme clusters. */
function shortened(text: string, room: number): string {
  const ELLIPSIS = '…';
  const cut = graphemeCut(text, room - ELLIPSIS.length, utf16Length);
  return `${text.slice(0, cut).trimEnd()}${ELLIPSIS}`;
}

/** What Discord (content) and Telegram (text) take at most. */
export const CHAT_LIMITS = { discord: 2000, telegram: 4096 } as const;

/**
 * The request body for the configured format: Jig's JSON (the facts), or the message shape a
 * Slack (`text`), Discord (`content`) or Telegram (`chat_id`, `text`) webhook takes.
 */
export function notifyBody(f: NotifyFacts, file: Pick<NotifyFile, 'format' | 'chat_id'>): unknown {
  const text = notifyText(f);
  switch (file.format) {
    case 'slack':
      // Slack reads `<!channel>` and `<@U…>` as mentions: a title is text, not a ping.
      return { text: text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') };
    case 'discord':
      // Discord refuses longer content; no `@everyone` in a title pings anyone.
      return { content: notifyText(f, CHAT_LIMITS.discord), allowed_mentions: { parse: [] } };
    case 'telegram':
      return {
        chat_id: file.chat_id,
        text: notifyText(f, CHAT_LIMITS.telegram),
        disable_web_page_preview: true,
      };
    case 'json':
      return { ...f, text };
  }
}
