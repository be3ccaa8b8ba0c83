import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentSetup } from './agents.js';

/**
 * A chain whose agent writes an 11 MB spec, over the 10 MiB a document may be, shown by the gate
 * `review` (issue 40: such a document is listed with its problem and its gate is not approved).
 */
export const BIG_DOCUMENT_CHAIN = `
nodes:
  - id: write
    kind: exec
    tasks:
      - id: author
        kind: agent
        harness: claude
        produces: spec
        prompt: Write the spec.
  - id: review
    kind: gate
    artifact: spec
    reject_to: write
`;

/** A server with the fake agents and the chain `big`, whose agent writes the oversized spec. */
export function bigDocumentSetup(): ReturnType<typeof agentSetup> {
  const script = join(mkdtempSync(join(tmpdir(), 'jig-big-doc-')), 'script.json');
  writeFileSync(
    script,
    JSON.stringify({ rules: [{ match: 'Write the spec', mode: 'done', artifact: 'a'.repeat(11_000_000) }] }),
  );
  return agentSetup({ big: BIG_DOCUMENT_CHAIN }, { env: { FAKE_AGENT_SCRIPT: script } });
}
