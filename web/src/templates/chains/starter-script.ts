import { parse, stringify, YAMLParseError } from 'yaml';
import type { NodePart, StepPart, TaskPart } from './shape.js';

/*
 * The chain test's script on the Review & publish screen (docs/chain-tests.md): the starter written
 * from the chain the editor draws (every agent task answers "done", every gate approves, the item
 * is expected to complete), and the text a person typed read back as the object the API takes.
 */

/** A task whose kind the editor does not know (a chain that does not resolve) counts as an agent. */
const isAgent = (t: TaskPart) => t.kind === null || t.kind === 'agent';
/** The tasks a chain test runs for real unless the script stubs them (a forge wait is neither). */
const isCommand = (t: TaskPart) => t.kind === 'subprocess' || t.kind === 'builtin';
const tasksOf = (steps: readonly StepPart[]) => steps.flatMap((s) => s.tasks);

/**
 * The chain's agent task paths, command task paths and gates, in walk order: each node's steps, its
 * handlers' steps, then its slot tasks (judge, escalation, a gate's auto review).
 */
export function chainPaths(parts: readonly NodePart[]): {
  agents: string[];
  commands: string[];
  gates: string[];
} {
  const agents: string[] = [];
  const commands: string[] = [];
  const gates: string[] = [];
  for (const n of parts) {
    if (n.kind === 'gate') gates.push(n.id);
    const tasks = [...tasksOf(n.steps), ...n.handlerParts.flatMap((h) => tasksOf(h.steps)), ...n.slots];
    for (const t of tasks) {
      if (isAgent(t)) agents.push(t.path);
      else if (isCommand(t)) commands.push(t.path);
    }
  }
  return { agents, commands, gates };
}

/** The starter script's text: each agent task `{}` (a plain "done"), each gate `approve`, completes. */
export function starterScript(parts: readonly NodePart[]): string {
  const { agents, commands, gates } = chainPaths(parts);
  const script = {
    tasks: Object.fromEntries(agents.map((p) => [p, {}])),
    gates: Object.fromEntries(gates.map((g) => [g, 'approve'])),
    expect: { completes: true },
  };
  const head = [
    '# Each agent task answers "done" ({}), each gate approves. Script findings, files, costs,',
    '# rejections and more: docs/chain-tests.md.',
  ];
  if (commands.length)
    head.push(
      `# Command tasks run for real in a clone of the repository: ${commands.join(', ')}.`,
      '# Stub one under `commands:` ({exit_code: 0, output: "..."}) to answer it instead.',
    );
  return `${head.join('\n')}\n${stringify(script)}`;
}

/** A script typed as YAML or JSON, as the API takes it, or why it is not one (with its line). */
export function readScript(text: string): { script: Record<string, unknown> } | { error: string } {
  let value: unknown;
  try {
    value = parse(text) ?? {};
  } catch (e) {
    if (!(e instanceof YAMLParseError)) return { error: String(e) };
    const at = e.linePos?.[0];
    const first = e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    return { error: at ? `Line ${at.line}, column ${at.col}: ${first}` : first };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return {
      error: 'The script must be a mapping (tasks:, gates:, expect:, …), not a list or a single value.',
    };
  return { script: value as Record<string, unknown> };
}
