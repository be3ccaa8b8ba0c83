import { KeyedQueues } from '../serial.js';

const queues = new KeyedQueues();

/**
 * Runs `fn` once every earlier call for the same repository has ended. git keeps its worktrees'
 * bookkeeping in the repository (`.git/worktrees/`), and an add reads every entry there: an add
 * running while another is half-written fails ("failed to read …/commondir"). Items of one repo
 * start together often enough (a queue's slots freeing at once) for that to happen.
 */
export function inRepoQueue<T>(repo: string, fn: () => Promise<T>): Promise<T> {
  return queues.serial(repo, fn);
}
