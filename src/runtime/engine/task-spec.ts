import type { RepoEntry } from '../../contract/config/repos.js';
import { WaitTarget } from '../../contract/config/task.js';
import type { ModelAgentTask, ModelTask } from '../../core/chain/model.js';
import { join } from 'node:path';
import { splitWords } from '../../core/items/split-words.js';
import { packageRoot } from '../package-root.js';

/**
 * The rebase builtin is a script of its own, so it is supervised and adopted like any task: the
 * compiled file, wherever this module runs from (src/ under the tests, the bundle in dist/bundle).
 */
export const MR_REBASE = join(packageRoot, 'dist', 'runtime', 'builtins', 'mr-rebase.js');
/** So are the forge actions that act at once. */
export const FORGE_TASK = join(packageRoot, 'dist', 'runtime', 'builtins', 'forge-task.js');

/** Forge targets that act and end; the rest wait on the forge (CI, reviews, approval, the merge). */
export const IMMEDIATE_FORGE = ['mr.open_draft', 'mr.sync', 'mr.mark_ready'] as const;
export type ImmediateForge = (typeof IMMEDIATE_FORGE)[number];
const immediate = (t: string): t is ImmediateForge => (IMMEDIATE_FORGE as readonly string[]).includes(t);

/** What to run for one task, or why it cannot run (a config stop, never a fake success). */
export type TaskSpec =
  | { kind: 'process'; argv: string[] }
  | { kind: 'pass'; note: string }
  | { kind: 'agent'; task: ModelAgentTask }
  | { kind: 'forge'; target: ImmediateForge }
  /** An external wait: the item waits on the forge, holding no slot (waits.ts). */
  | { kind: 'wait'; target: WaitTarget }
  | { kind: 'refuse'; stop: 'config'; reason: string };

/**
 * Turns a resolved task into a command. Subprocess: `run` goes through `sh -c`; `argv` and the older
 * `command` run without a shell. Builtins are commands too, so they are supervised, logged and
 * capped like any task.
 */
export function taskSpec(task: ModelTask, repo: RepoEntry, baseBranch: string): TaskSpec {
  switch (task.kind) {
    case 'subprocess': {
      if (task.run !== undefined) return { kind: 'process', argv: ['/bin/sh', '-c', task.run] };
      if (task.argv !== undefined) return { kind: 'process', argv: task.argv };
      if (task.command !== undefined) {
        const words = splitWords(task.command);
        if (!words || words.length === 0) {
          return {
            kind: 'refuse',
            stop: 'config',
            reason: `${task.path}: command cannot be split into words`,
          };
        }
        return { kind: 'process', argv: words };
      }
      return { kind: 'refuse', stop: 'config', reason: `${task.path}: a subprocess task needs run or argv` };
    }
    case 'builtin': {
      if (task.ref === 'jig.verify_changed_test_scopes') {
        if (repo.test_command === undefined) {
          return {
            kind: 'refuse',
            stop: 'config',
            reason: `repo ${repo.path} has no test_command; set one in repos.yaml ("" when it has no tests)`,
          };
        }
        if (repo.test_command === '')
          return { kind: 'pass', note: 'the repo has no tests (test_command: "")' };
        return { kind: 'process', argv: ['/bin/sh', '-c', repo.test_command] };
      }
      if (task.ref === 'jig.mr_rebase')
        return { kind: 'process', argv: [process.execPath, MR_REBASE, baseBranch] };
      // A frozen chain is parsed when read, so no other builtin can reach here.
      const unknown: never = task.ref;
      return {
        kind: 'refuse',
        stop: 'config',
        reason: `${task.path}: builtin ${String(unknown)} is not known`,
      };
    }
    case 'agent':
      if (task.prompt.trim() === '')
        return { kind: 'refuse', stop: 'config', reason: `${task.path}: an agent task needs a prompt` };
      return { kind: 'agent', task };
    case 'forge': {
      if (typeof task.target === 'string' && immediate(task.target))
        return { kind: 'forge', target: task.target };
      const wait = WaitTarget.safeParse(task.target);
      if (wait.success) return { kind: 'wait', target: wait.data };
      return { kind: 'refuse', stop: 'config', reason: `${task.path}: a forge task needs a target` };
    }
    default: {
      const unknown: never = task;
      return { kind: 'refuse', stop: 'config', reason: `unknown task kind in ${JSON.stringify(unknown)}` };
    }
  }
}
