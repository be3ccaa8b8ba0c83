import type { SessionReadout } from '../../../contract/harness/provider.js';

/*
 * Code, not rules: Claude Code prints one `assistant` event per content block, and every block
 * of one API message repeats that message's `usage`. Summing the events would count a message
 * once per block; this keeps the latest usage per `message.id` and sums over ids. These are live
 * figures only: the `result` event's totals (a declarative rule) replace them.
 */
interface Usage {
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

export function claudeMessageUsage(): (event: unknown, out: SessionReadout) => void {
  const byMessage = new Map<string, Usage>();
  return (event, out) => {
    if (out.done || typeof event !== 'object' || event === null) return;
    const e = event as { type?: unknown; message?: { id?: unknown; usage?: Record<string, unknown> } };
    if (e.type !== 'assistant' || typeof e.message?.id !== 'string' || !e.message.usage) return;
    const u = e.message.usage;
    byMessage.set(e.message.id, {
      input: num(u['input_tokens']),
      output: num(u['output_tokens']),
      cache_read: num(u['cache_read_input_tokens']),
      cache_write: num(u['cache_creation_input_tokens']),
    });
    const t = { input: 0, output: 0, cache_read: 0, cache_write: 0 };
    for (const m of byMessage.values()) {
      t.input += m.input;
      t.output += m.output;
      t.cache_read += m.cache_read;
      t.cache_write += m.cache_write;
    }
    out.tokens = t;
  };
}
