/**
 * A model id as the agent CLIs take it: `sonnet`, `claude-sonnet-4-5`, `gpt-5-codex`,
 * `openai/gpt-5`, `gemini-2.5-pro`. No spaces, no shell metacharacters, a sane length. Each
 * harness may narrow this further by its own pattern.
 */
const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,199}$/;

export function isModelId(value: unknown): boolean {
  return typeof value === 'string' && MODEL_ID.test(value);
}

/**
 * Every `model` in an override object that is not a model id, as `{field, value}` (field names the
 * dotted place: `agent_overrides.model`, `node_overrides.implementation.model`).
 */
export function badModelIds(root: string, overrides: unknown): { field: string; value: string }[] {
  const out: { field: string; value: string }[] = [];
  const walk = (v: unknown, path: string): void => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return;
    for (const [k, child] of Object.entries(v as Record<string, unknown>)) {
      const here = `${path}.${k}`;
      if ((k === 'model' || k === 'escalate_model') && !isModelId(child))
        out.push({ field: here, value: String(JSON.stringify(child)) });
      else walk(child, here);
    }
  };
  walk(overrides, root);
  return out;
}
