import { JigError } from '../../contract/errors.js';
import { NodeOverrideFields } from '../../contract/items/node-override.js';
import { own } from '../json/own.js';

/** The settings of one node's override the engine acts on beyond model and effort. */
export interface NodeSettings {
  extra_prompt?: string;
  auto_escalate?: boolean;
  auto_escalate_stuck?: boolean;
  auto_escalate_delay_s?: number;
}

/**
 * What `node_overrides[node]` sets, each field read on its own: a value of the wrong type (stored
 * before these were checked) counts as unset rather than making the whole override unreadable.
 */
export function nodeSettings(overrides: Record<string, unknown>, node: string): NodeSettings {
  const entry = own(overrides, node);
  if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return {};
  const out: NodeSettings = {};
  const e = entry as Record<string, unknown>;
  const p = NodeOverrideFields.extra_prompt.safeParse(e.extra_prompt);
  if (p.success) out.extra_prompt = p.data;
  const a = NodeOverrideFields.auto_escalate.safeParse(e.auto_escalate);
  if (a.success) out.auto_escalate = a.data;
  const st = NodeOverrideFields.auto_escalate_stuck.safeParse(e.auto_escalate_stuck);
  if (st.success) out.auto_escalate_stuck = st.data;
  const d = NodeOverrideFields.auto_escalate_delay_s.safeParse(e.auto_escalate_delay_s);
  if (d.success) out.auto_escalate_delay_s = d.data;
  return out;
}

/**
 * Every known field of every node's override with a value of the wrong type, as `{field, message}`
 * (`node_overrides.implementation.auto_escalate`): a create or PATCH refuses them by name.
 */
export function badNodeOverrides(overrides: unknown): { field: string; message: string }[] {
  if (!overrides || typeof overrides !== 'object' || Array.isArray(overrides)) return [];
  const out: { field: string; message: string }[] = [];
  for (const [node, entry] of Object.entries(overrides as Record<string, unknown>)) {
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
      out.push({ field: `node_overrides.${node}`, message: 'must be an object of settings' });
      continue;
    }
    for (const [key, schema] of Object.entries(NodeOverrideFields)) {
      const v = (entry as Record<string, unknown>)[key];
      if (v === undefined || key === 'model') continue; // model ids: badModelIds names them
      const r = schema.safeParse(v);
      if (!r.success)
        out.push({
          field: `node_overrides.${node}.${key}`,
          message: r.error.issues[0]?.message ?? 'invalid',
        });
    }
  }
  return out;
}

/** Refuses (422, the first field named) node overrides with a known setting of the wrong type. */
export function checkNodeOverrides(overrides: unknown): void {
  const bad = badNodeOverrides(overrides);
  if (bad.length === 0) return;
  throw new JigError(
    'validation_failed',
    { reason: `body.${bad[0]!.field}: ${bad[0]!.message}` },
    { issues: bad.map((b) => ({ field: `body.${b.field}`, message: b.message })) },
  );
}
