/*
 * Building the command tree loads commander and the definitions only (names, arguments, options,
 * help): `jig --version` and `--help` must not wait for the client, its schemas and zod (issue 42).
 * A verb's code is in a module of its own (`*-actions.ts`), imported when the verb runs.
 * test/cli-start.test.ts fails when a start loads more than commander and the definitions.
 */

type Action = (...args: never[]) => unknown;

/**
 * The action of a command whose code is `name` of the module `load` imports (write it as a literal
 * `() => import('./x-actions.js')`). The function gets `lead` first (what a definition made in a
 * loop hands its verb), then what commander hands an action: the arguments, the options, the command.
 */
export function later<M extends { [k in K]: Action }, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
  ...lead: unknown[]
): (...args: unknown[]) => Promise<void> {
  return async (...args) => {
    const run: Action = (await load())[name];
    // Commander hands an action untyped values; each action's parameters say what it reads.
    await Reflect.apply(run, undefined, [...lead, ...args]);
  };
}
