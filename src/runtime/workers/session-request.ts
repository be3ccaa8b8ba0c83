import type { SandboxRequest } from '../sandbox/request.js';
import type { AgentLaunch } from './agent-session.js';

/** One task process to start: what the session runner is asked to run, and how. */
export interface SessionRequest {
  itemId: string;
  node: string;
  taskPath: string;
  kind: string;
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  timeCapS: number | null;
  /** Jig's instruction for a repair or judge: written beside the result file, named by $JIG_FIX_BRIEF. */
  brief?: string;
  /** The workspace member a fanned-out run is for. */
  member?: string;
  /** An agent launch: its stream is read live for usage, and its status follows the agent rules. */
  agent?: AgentLaunch;
  /** The jail the task runs in (docs/sandbox.md); absent: as the server's user, with its reach. */
  sandbox?: SandboxRequest;
}
