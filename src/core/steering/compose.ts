import { CONTRACT_TEXT } from './contract-text.js';

export interface SteeringInstructions {
  instructions: string;
}

export interface SteeringPart {
  /** `jig` (the built-in contract), `repo` (repos.yaml `steering:`) or `task` (the task's `steering:`). */
  source: 'jig' | 'repo' | 'task';
  name: string;
  /** Where the text comes from: `jig:contract`, or `library:steering.<name>`. */
  origin: string;
  text: string;
}

export interface ComposedSteering {
  parts: SteeringPart[];
  /** Names that no library steering entry answers; they add nothing. */
  missing: { source: 'repo' | 'task'; name: string }[];
  /** The parts' texts in order, as the agent reads them. */
  text: string;
}

/**
 * What an agent task reads at launch, in order: Jig's contract, the repository's steering, then
 * the task's. A name listed by both the repository and the task is read once, at the repository's
 * place.
 */
export function composeSteering(input: {
  repo: readonly string[];
  task: readonly string[];
  lookup: (name: string) => SteeringInstructions | undefined;
}): ComposedSteering {
  const parts: SteeringPart[] = [
    { source: 'jig', name: 'contract', origin: 'jig:contract', text: CONTRACT_TEXT },
  ];
  const missing: ComposedSteering['missing'] = [];
  const seen = new Set<string>();
  for (const [source, names] of [
    ['repo', input.repo],
    ['task', input.task],
  ] as const) {
    for (const name of names) {
      if (seen.has(name)) continue;
      seen.add(name);
      const entry = input.lookup(name);
      if (!entry) missing.push({ source, name });
      else parts.push({ source, name, origin: `library:steering.${name}`, text: entry.instructions });
    }
  }
  return { parts, missing, text: parts.map((p) => p.text.trimEnd()).join('\n\n') };
}
