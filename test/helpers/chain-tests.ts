/** Chains the chain-test tests walk (issue 51): agent tasks on the `claude` harness. */

export const agentTask = (id: string, prompt: string, indent = '      '): string =>
  `${indent}- id: ${id}\n${indent}  kind: agent\n${indent}  harness: claude\n${indent}  prompt: ${prompt}\n`;

/** `build`: code and check, with a repair in its fix loop; then, with `gate`, the `ship` gate. */
export const buildChain = (gate: boolean): string =>
  `
nodes:
  - id: build
    kind: exec
    tasks:
${agentTask('code', 'Add the feature.')}${agentTask('check', 'Review the feature.')}    fix_loop:
      tasks:
${agentTask('repair', 'Fix what the review found.', '        ')}` + (gate ? shipGate : '');

const shipGate = `  - id: ship
    kind: gate
    message: Ship it?
    reject_to: build
`;

/** `build` with one agent task `code`, then the `ship` gate. */
export const shippingChain = `
nodes:
  - id: build
    kind: exec
    tasks:
${agentTask('code', 'Add the feature.')}${shipGate}`;

/** One node with one agent task `code`. */
export const singleTask = (node: string): string => `
nodes:
  - id: ${node}
    kind: exec
    tasks:
${agentTask('code', 'Add the feature.')}`;
