const tails = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` once every earlier call for the same repository has ended. git keeps its worktrees'
 * bookkeeping in the repository (`.git/worktrees/`), and an add reads every entry there: an add
 * running while another is half-written fails ("failed to read …/commondir"). Items of one repo
 * start together often enough (a queue's slots freeing at once) for that to happen.
 */
export function inRepoQueue<T>(repo: string, fn: () => Promise<T>): Promise<T> {
  const before = tails.get(repo) ?? Promise.resolve();
  const run = before.then(fn, fn);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  tails.set(repo, tail);
  void tail.then(() => {
    if (tails.get(repo) === tail) tails.delete(repo);
  });
  return run;
}
