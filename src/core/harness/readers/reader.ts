import type {
  ProviderDefinition,
  ReaderRule,
  ReadoutField,
  SessionReadout,
} from '../../../contract/harness/provider.js';
import { claudeMessageUsage } from './claude-usage.js';
import { extract, holds, lookup, type ExtractContext } from './extract.js';

/** Reads one CLI session's JSON-lines stream as it arrives. */
export interface StreamReader {
  /** One complete line. A JSON object goes to the rules; any other line only to the `lines` rules. */
  line(text: string): void;
  /** A raw chunk of output; lines are split here and a partial last line is kept for later. */
  chunk(text: string): void;
  /** Flushes a partial last line (end of stream). */
  end(): void;
  /** The readout so far (a copy). */
  snapshot(): SessionReadout;
}

export function emptyReadout(): SessionReadout {
  return {
    session_id: null,
    model: null,
    tokens: { input: 0, output: 0, cache_read: 0, cache_write: 0 },
    cost_usd_reported: null,
    rate_limit: { hit: false, resets_at: null },
    is_error: false,
    error_message: null,
    permission_denials: 0,
    tool_calls: 0,
    final_text: null,
    done: false,
  };
}

function assign(out: SessionReadout, field: ReadoutField, v: unknown): void {
  const str = (x: unknown): string | null =>
    typeof x === 'string' ? x : typeof x === 'number' ? String(x) : null;
  const n = typeof v === 'number' && Number.isFinite(v) ? v : null;
  switch (field) {
    case 'session_id':
    case 'model':
    case 'final_text':
    case 'error_message':
    case 'rate_limit.resets_at': {
      const s = str(v);
      if (s === null) return;
      if (field === 'rate_limit.resets_at') out.rate_limit.resets_at = s;
      else out[field] = s;
      return;
    }
    case 'cost_usd_reported':
      if (n !== null) out.cost_usd_reported = n;
      return;
    case 'permission_denials':
    case 'tool_calls':
      if (n !== null) out[field] = Math.max(0, n);
      return;
    case 'is_error':
    case 'done':
      if (typeof v === 'boolean') out[field] = v;
      return;
    case 'rate_limit.hit':
      if (typeof v === 'boolean') out.rate_limit.hit = v;
      return;
    case 'tokens.input':
    case 'tokens.output':
    case 'tokens.cache_read':
    case 'tokens.cache_write':
      if (n !== null) out.tokens[field.slice(7) as keyof SessionReadout['tokens']] = Math.max(0, n);
      return;
  }
}

function clearField(out: SessionReadout, field: ReadoutField): void {
  const fresh = emptyReadout();
  if (
    field === 'tokens.input' ||
    field === 'tokens.output' ||
    field === 'tokens.cache_read' ||
    field === 'tokens.cache_write'
  ) {
    const k = field.slice(7) as keyof SessionReadout['tokens'];
    out.tokens[k] = fresh.tokens[k];
  } else if (field === 'rate_limit.hit') out.rate_limit.hit = false;
  else if (field === 'rate_limit.resets_at') out.rate_limit.resets_at = null;
  else copyField(out, fresh, field);
}

/** One top-level field of a readout, copied from another: typed by its key, whichever it is. */
function copyField<K extends keyof SessionReadout>(to: SessionReadout, from: SessionReadout, k: K): void {
  to[k] = from[k];
}

function apply(rule: ReaderRule, event: unknown, out: SessionReadout, ctx: ExtractContext): void {
  for (const [path, cond] of Object.entries(rule.when)) if (!holds(lookup(event, path), cond)) return;
  for (const f of rule.clear ?? []) clearField(out, f);
  for (const [field, spec] of Object.entries(rule.set ?? {})) {
    const v = extract(event, spec, ctx);
    if (v !== undefined) assign(out, field as ReadoutField, v);
  }
  for (const [field, spec] of Object.entries(rule.add ?? {})) {
    const v = extract(event, spec, ctx);
    if (typeof v !== 'number' || !Number.isFinite(v)) continue;
    if (field === 'permission_denials' || field === 'tool_calls') out[field] += Math.max(0, v);
    else out.tokens[field.slice(7) as keyof SessionReadout['tokens']] += Math.max(0, v);
  }
  for (const [, spec] of Object.entries(rule.append ?? {})) {
    const v = extract(event, spec, ctx);
    if (typeof v === 'string') out.final_text = (out.final_text ?? '') + v;
  }
}

/** A reader for `def`'s stream: its hooks (code) run first on each event, then its rules in order. */
export function createReader(def: ProviderDefinition, opts: { now?: () => number } = {}): StreamReader {
  const out = emptyReadout();
  const ctx: ExtractContext = { now: opts.now ?? null };
  const hooks = def.reader.hooks.map((h) => {
    switch (h) {
      case 'claude_message_usage':
        return claudeMessageUsage();
    }
  });
  let pending = '';
  const line = (text: string): void => {
    const t = text.trim();
    if (t === '') return;
    let event: unknown;
    try {
      event = t.startsWith('{') ? JSON.parse(t) : undefined;
    } catch {
      event = undefined;
    }
    if (typeof event !== 'object' || event === null || Array.isArray(event)) {
      // Not an event: a line of stderr or a warning, which only `lines` rules read.
      for (const r of def.reader.lines) apply(r, t, out, ctx);
      return;
    }
    for (const h of hooks) h(event, out);
    for (const r of def.reader.rules) apply(r, event, out, ctx);
  };
  return {
    line,
    chunk(text) {
      pending += text;
      const parts = pending.split('\n');
      pending = parts.pop() ?? '';
      for (const p of parts) line(p);
    },
    end() {
      if (pending !== '') line(pending);
      pending = '';
    },
    snapshot: () => JSON.parse(JSON.stringify(out)) as SessionReadout,
  };
}

/** Reads a whole stream at once (a finished session's log). */
export function readStream(
  def: ProviderDefinition,
  text: string,
  opts: { now?: () => number } = {},
): SessionReadout {
  const r = createReader(def, opts);
  r.chunk(text);
  r.end();
  return r.snapshot();
}
