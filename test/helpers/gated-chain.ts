/**
 * A chain that needs no agent CLI: a command commits a file, the gate `review` waits for a person
 * (a rejection goes back to `build`), a command finishes the item.
 */
export const GATED_CHAIN = `
nodes:
  - id: build
    kind: exec
    tasks:
      - id: touch
        kind: subprocess
        run: echo built >> out.txt && git add out.txt && git commit -qm built
  - id: review
    kind: gate
    message: Look at out.txt
    reject_to: build
  - id: finish
    kind: exec
    tasks:
      - id: last
        kind: subprocess
        run: echo finished
`;
