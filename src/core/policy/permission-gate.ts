/*
 * The permission gate a CLI's pre-tool hook asks (Codex, Cursor): one tool call, the launch's tool
 * policy, and an answer. Claude enforces the same policy itself (its --allowedTools and
 * --disallowedTools), so the rules here mirror what those flags do, in the same order.
 */

export type GateDecision = 'allow' | 'deny' | 'none' | 'ask';
export type GateRule = 'deny_tools' | 'grant' | 'no_allowlist' | 'listed' | 'not_listed';

export interface GatePolicy {
  /** null: policy sets no allowed-tools list. */
  allowed_tools: readonly string[] | null;
  deny_tools: readonly string[];
  grants: readonly string[];
  /** A person filed the item: a call the list leaves out waits for their answer instead of a denial. */
  ask: boolean;
}

export interface GateCall {
  /** Jig's names for the tool (one CLI tool may be several of Jig's: Codex `apply_patch` is Write and Edit). */
  names: readonly string[];
  input: Record<string, unknown>;
}

export interface GateAnswer {
  decision: GateDecision;
  rule: GateRule;
  reason: string;
}

const GRANT_VERB: Record<string, string> = {
  'git-commit': 'commit',
  'git-rebase': 'rebase',
  'git-push': 'push',
};

/**
 * The git subcommand of a command line that is exactly one plain git invocation, else null. Any
 * shell syntax (a pipe, `;`, `&&`, redirection, substitution, a newline) makes it more than one
 * command, so a grant never lets a second command ride along.
 */
export function plainGitVerb(command: string): string | null {
  if (/[;&|<>`$\n\r\\(){}]/.test(command)) return null;
  const words = command.trim().split(/\s+/);
  if (words[0] !== 'git') return null;
  // Global options before the subcommand (`git -C dir commit`) are refused: they change what runs.
  const verb = words[1];
  return verb && /^[a-z][a-z-]*$/.test(verb) ? verb : null;
}

const commandOf = (input: Record<string, unknown>): string | null => {
  const c = input.command ?? input.cmd;
  if (typeof c === 'string') return c;
  if (Array.isArray(c) && c.every((w) => typeof w === 'string')) return c.join(' ');
  return null;
};

/**
 * Whether a policy entry names this call: `Bash` names every Bash call; `Bash(git commit:*)` the
 * Bash calls whose command starts with `git commit`; `Bash(npm test)` exactly that command (the
 * pattern forms Claude's --allowedTools takes).
 */
export function entryMatches(entry: string, name: string, input: Record<string, unknown>): boolean {
  const m = /^(?<tool>[^()]+)\((?<pattern>.*)\)$/.exec(entry.trim());
  const tool = m?.groups?.tool;
  const pattern = m?.groups?.pattern;
  if (tool === undefined || pattern === undefined) return entry.trim() === name;
  if (tool.trim() !== name) return false;
  const command = commandOf(input);
  if (command === null) return false;
  if (pattern.endsWith(':*')) {
    const prefix = pattern.slice(0, -2);
    return command === prefix || command.startsWith(`${prefix} `);
  }
  return command.trim() === pattern.trim();
}

const named = (list: readonly string[], name: string, input: Record<string, unknown>): boolean =>
  list.some((e) => entryMatches(e, name, input));

/** The gate's answer, in the order of the reference's permission gate (docs/review.md). */
export function decideToolCall(call: GateCall, p: GatePolicy): GateAnswer {
  const label = call.names.join('/');
  const denied = call.names.find((n) => named(p.deny_tools, n, call.input));
  if (denied) return { decision: 'deny', rule: 'deny_tools', reason: `policy denies ${denied} (deny_tools)` };
  if (call.names.length === 1 && call.names[0] === 'Bash') {
    const command = commandOf(call.input);
    const verb = command === null ? null : plainGitVerb(command);
    const grant = p.grants.find((g) => GRANT_VERB[g] === verb);
    if (grant) return { decision: 'allow', rule: 'grant', reason: `policy grants ${grant}` };
  }
  if (p.allowed_tools === null)
    return { decision: 'none', rule: 'no_allowlist', reason: 'policy sets no allowed_tools' };
  const allowed = p.allowed_tools;
  if (call.names.every((n) => named(allowed, n, call.input)))
    return { decision: 'allow', rule: 'listed', reason: `${label} is in allowed_tools` };
  return p.ask
    ? { decision: 'ask', rule: 'not_listed', reason: `${label} is not in allowed_tools: a person decides` }
    : { decision: 'deny', rule: 'not_listed', reason: `${label} is not in allowed_tools` };
}
