import type {
  PermissionModeCapability,
  ProviderDefinition,
  Slot,
  ValueCapability,
} from '../../contract/harness/provider.js';
import { entryMatches } from '../policy/permission-gate.js';

/** What one agent launch asks of its CLI; every field but the prompt is optional. */
export interface LaunchInputs {
  prompt: string;
  /** The system prompt text (Jig's contract plus steering). */
  context?: string | null;
  model?: string | null;
  effort?: string | null;
  permission_mode?: string | null;
  allowed_tools?: readonly string[] | null;
  denied_tools?: readonly string[] | null;
  /** The MCP config (JSON) naming Jig's server, for a provider that can ask a person; null: none. */
  permission_prompt?: string | null;
  /**
   * The hook Jig installed for this launch (a provider with `permission_hook`): its argv words
   * (none for a hook written to a file). With it, tool lists the CLI has no flags for are enforced.
   */
  permission_hook?: { args: readonly string[] } | null;
  /** Resume this CLI session instead of starting a new one. */
  resume_session_id?: string | null;
  /** The harness entry's `executable`, replacing the first word of the command. */
  executable?: string | null;
  /** Extra argv written at the provider's `extra` slot, after its own `extra_args`. */
  extra_args?: readonly string[] | null;
}

export type ArgvBuild =
  | {
      ok: true;
      argv: string[];
      /** Variables to add to the launch environment. */
      env: Record<string, string>;
      /** Inputs the CLI cannot take and that were left out (the launch still makes sense). */
      ignored: string[];
    }
  | { ok: false; reason: string };

/**
 * TOML basic string (Codex parses `-c key=value` values as TOML, and falls back to the raw text
 * only when that fails — so a context reading `true` would otherwise become a boolean).
 */
export function tomlString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (c < 0x20 || c === 0x7f) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return out + '"';
}

function fill(args: readonly string[], value: string | readonly string[]): string[] {
  const list = typeof value === 'string' ? [value] : value;
  const scalar = typeof value === 'string' ? value : value.join(',');
  return args.map((a) =>
    a
      .replaceAll('{csv}', list.join(','))
      .replaceAll('{toml}', tomlString(scalar))
      .replaceAll('{value}', scalar),
  );
}

/*
 * A prompt is its own argv word; one that starts with `-` would be read as an option by every
 * one of these CLIs' parsers, so it gets a leading space (harmless to the model).
 */
const safeWord = (s: string): string => (s.startsWith('-') ? ` ${s}` : s);

function checkValue(name: string, cap: ValueCapability, value: string): string | null {
  if (!cap.values || cap.values.some((re) => new RegExp(re).test(value))) return null;
  return `${name} \`${value}\` is not one this CLI accepts (${cap.values.join(' or ')})`;
}

/**
 * A mode that runs every tool would make the task's allowed-tools list a dead letter, so such a
 * launch leaves the mode out: the CLI's own default mode applies, which holds the lists.
 */
function runsEveryTool(cap: PermissionModeCapability, value: string): boolean {
  return (cap.runs_every_tool ?? []).some((re) => new RegExp(re).test(value));
}

/**
 * Whether the launch's allowed-tools list holds anything back: a list that is the CLI's whole
 * working set (`unrestricted`, less what is denied, which the deny flags hold) restricts nothing.
 */
function restricts(def: ProviderDefinition, inputs: LaunchInputs, denied: readonly string[]): boolean {
  if (!present(inputs.allowed_tools)) return false;
  const whole = def.capabilities.allowed_tools?.unrestricted;
  if (!whole) return true;
  const allowed = new Set(inputs.allowed_tools);
  return !whole.every((t) => denied.includes(t) || allowed.has(t));
}

const present = (list: readonly string[] | null | undefined): list is readonly string[] =>
  Array.isArray(list) && list.length > 0;

/**
 * Tools that never reach the CLI's hook: one the launch's policy would deny is switched off by its
 * `off` arguments, and with none the launch is refused (the hook could not stop it).
 */
function unhookedOff(
  def: ProviderDefinition,
  inputs: LaunchInputs,
): { ok: true; args: string[] } | { ok: false; reason: string } {
  const args: string[] = [];
  for (const [tool, how] of Object.entries(def.capabilities.permission_hook?.unhooked ?? {})) {
    const denied =
      (inputs.denied_tools ?? []).some((e) => entryMatches(e, tool, {})) ||
      (present(inputs.allowed_tools) && !inputs.allowed_tools.some((e) => entryMatches(e, tool, {})));
    if (!denied) continue;
    if (!how.off)
      return {
        ok: false,
        reason: `${def.id}: ${tool} never reaches its hook, so a policy that denies it cannot be enforced; allow ${tool} or pick another harness`,
      };
    args.push(...how.off);
  }
  return { ok: true, args };
}

/**
 * The exact argv (and environment additions) that launch `def`'s CLI for these inputs. Pure: the
 * same inputs give the same words. Refuses, with a reason, a launch the CLI cannot honour safely:
 * a tool list it cannot enforce, a resume it cannot do by id, a value outside its vocabulary.
 */
export function buildArgv(def: ProviderDefinition, inputs: LaunchInputs): ArgvBuild {
  const caps = def.capabilities;
  const ignored: string[] = [];
  const frag = new Map<Slot, string[]>();

  const resumeId = inputs.resume_session_id ?? null;
  if (resumeId !== null && !caps.resume) {
    return {
      ok: false,
      reason: `${def.id} cannot resume a session by id; restart it with its brief instead`,
    };
  }
  const hooked = caps.permission_hook && inputs.permission_hook ? inputs.permission_hook : null;
  if (present(inputs.allowed_tools) && !caps.allowed_tools && !hooked) {
    return { ok: false, reason: `${def.id} cannot enforce an allowed-tools list` };
  }
  const denied = [...(caps.deny_tools?.always ?? []), ...(inputs.denied_tools ?? [])];
  if (present(inputs.denied_tools) && !caps.deny_tools && !hooked) {
    return { ok: false, reason: `${def.id} cannot enforce a denied-tools list` };
  }
  if (hooked) {
    const off = unhookedOff(def, inputs);
    if (!off.ok) return off;
    frag.set('permission_hook', [...hooked.args, ...off.args]);
  }

  let prompt = inputs.prompt;
  const context = inputs.context ?? '';
  if (context !== '') {
    if (caps.context.channel === 'system_prompt') frag.set('context', fill(caps.context.args, context));
    else prompt = caps.context.template.replace('{context}', () => context).replace('{prompt}', () => prompt);
  }
  frag.set('prompt', fill(caps.prompt.args, safeWord(prompt)));
  if (caps.structured_log) frag.set('structured_log', [...caps.structured_log.args]);

  for (const name of ['model', 'effort', 'permission_mode'] as const) {
    const cap = caps[name];
    const given = inputs[name] ?? null;
    if (!cap) {
      if (given !== null) ignored.push(`${name} (${def.id} has no ${name} option)`);
      continue;
    }
    const value = given ?? cap.default ?? null;
    if (value === null) continue;
    if (name === 'permission_mode' && restricts(def, inputs, denied) && runsEveryTool(cap, value)) {
      ignored.push(
        `permission_mode ${value} (it runs every tool; the task's allowed_tools hold in the CLI's default mode)`,
      );
      continue;
    }
    const bad = checkValue(name, cap, value);
    if (bad) return { ok: false, reason: bad };
    frag.set(name, fill(cap.args, value));
  }

  const allowed = [...(caps.allowed_tools?.always ?? []), ...(inputs.allowed_tools ?? [])];
  if (caps.allowed_tools && present(inputs.allowed_tools)) {
    frag.set('allowed_tools', fill(caps.allowed_tools.args, [...new Set(allowed)]));
  }
  if (caps.deny_tools && denied.length > 0)
    frag.set('deny_tools', fill(caps.deny_tools.args, [...new Set(denied)]));

  const env = { ...def.env };
  if (caps.permission_prompt && inputs.permission_prompt) {
    frag.set('permission_prompt', fill(caps.permission_prompt.args, inputs.permission_prompt));
    Object.assign(env, caps.permission_prompt.env);
  }

  let prefix = [...def.command];
  if (resumeId !== null && caps.resume) {
    if (caps.resume.via === 'command_resume') {
      if (!def.command_resume)
        return { ok: false, reason: `${def.id}: resume via command_resume needs command_resume` };
      prefix = [...def.command_resume];
    }
    frag.set('resume', fill(caps.resume.args, resumeId));
  }
  frag.set('extra', [...def.extra_args, ...(inputs.extra_args ?? [])]);
  if (inputs.executable) prefix[0] = inputs.executable;

  const argv = [...prefix];
  for (const slot of def.order) argv.push(...(frag.get(slot) ?? []));
  const missing = [...frag.keys()].filter((s) => !def.order.includes(s) && (frag.get(s)?.length ?? 0) > 0);
  if (missing.length > 0)
    return { ok: false, reason: `${def.id}: order lists no place for ${missing.join(', ')}` };
  return { ok: true, argv, env, ignored };
}
