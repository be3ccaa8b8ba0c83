import type { HarnessesFile } from '../../contract/config/harnesses.js';
import type { RepoEntry } from '../../contract/config/repos.js';
import type { ProviderDefinition } from '../../contract/harness/provider.js';
import type { ModelAgentTask } from '../../core/chain/model.js';
import { buildArgv } from '../../core/harness/build-argv.js';
import { resolveLaunch, type LaunchChoice } from '../../core/harness/resolve-launch.js';
import { composeSteering, type SteeringInstructions } from '../../core/steering/compose.js';
import { own } from '../../core/json/own.js';
import { nodeSettings } from '../../core/items/node-settings.js';

export interface AgentLaunchInput {
  task: ModelAgentTask;
  node: string;
  harnesses: HarnessesFile;
  providers: Record<string, ProviderDefinition>;
  repo: RepoEntry;
  steering: (name: string) => SteeringInstructions | undefined;
  agentOverrides?: Record<string, unknown>;
  nodeOverrides?: Record<string, unknown>;
  /** A person's note for this launch (a steer), delivered once. */
  steer?: string | null;
  /** Resume this CLI session (when the provider can) instead of starting over. */
  resumeSessionId?: string | null;
  /** Tools to grant the CLI for this launch (its `allowed_tools` capability); refused when it has none. */
  allowedTools?: string[];
  /** Tools policy refuses (its `deny_tools` capability); refused when the CLI cannot enforce them. */
  deniedTools?: string[];
  /** The MCP config naming Jig's server, when this launch may ask a person (permission asks). */
  permissionPrompt?: string | null;
  /** The pre-tool hook Jig installed for this launch (its argv words), for a CLI that enforces tools so. */
  permissionHook?: { args: string[] } | null;
  /** The whole prompt of a resumed session (the steer, or an instruction to go on). */
  promptOverride?: string;
  /** The text of the task's `skill:`; a skill that cannot load stops the launch. */
  skill?: (ref: string) => { ok: true; text: string } | { ok: false; reason: string };
  /** The document kind the task produces: the system prompt says where to write it. */
  produces?: string | null;
}

export type AgentLaunch =
  | {
      ok: true;
      argv: string[];
      env: Record<string, string>;
      provider: ProviderDefinition;
      choice: LaunchChoice;
      /** The system prompt as composed (for the task's log view). */
      context: string;
      prompt: string;
      ignored: string[];
    }
  | { ok: false; reason: string };

/**
 * Everything one agent launch needs, from the frozen task and the running harness files: which CLI,
 * which model, the system prompt (Jig's contract, then repo steering, then task steering) and the
 * prompt (the task's, then any steer), turned into argv by the provider's definition.
 */
export function buildAgentLaunch(i: AgentLaunchInput): AgentLaunch {
  // A node may be called `constructor`: an item without overrides for it has none.
  const nodeOverride = own(i.nodeOverrides, i.node);
  const resolved = resolveLaunch({
    task: i.task,
    harnesses: i.harnesses,
    repoModels: i.repo.models,
    itemOverride: i.agentOverrides,
    nodeOverride: nodeOverride && typeof nodeOverride === 'object' ? nodeOverride : undefined,
  });
  if (!resolved.ok) return resolved;
  const { choice } = resolved;
  const provider = i.providers[choice.provider];
  if (!provider)
    return { ok: false, reason: `${i.task.path}: no provider definition for ${choice.provider}` };
  const taskSteering = Array.isArray(i.task.steering) ? i.task.steering.map(String) : [];
  const steering = composeSteering({ repo: i.repo.steering ?? [], task: taskSteering, lookup: i.steering });
  let skillText = '';
  if (typeof i.task.skill === 'string' && i.skill) {
    const sk = i.skill(i.task.skill);
    if (!sk.ok) return { ok: false, reason: `${i.task.path}: skill ${i.task.skill}: ${sk.reason}` };
    skillText = sk.text.trim();
  }
  // Jig's contract first, then the skill, then the repo's and the task's steering.
  const text = (source: 'jig' | 'other'): string[] =>
    steering.parts.filter((p) => (p.source === 'jig') === (source === 'jig')).map((p) => p.text.trimEnd());
  const documentNote = i.produces
    ? `This task produces the \`${i.produces}\` document: write it as Markdown to the path in $JIG_ARTIFACT_PATH and set "artifact_ref" in the result file to that path, relative to the worktree root. Do not commit it.`
    : '';
  const context = [...text('jig'), documentNote, skillText, ...text('other')]
    .filter((x) => x.trim() !== '')
    .join('\n\n');
  const own_ = typeof i.task.prompt === 'string' ? i.task.prompt : '';
  // A person's text for every agent task of this node (`set-node-override --extra-prompt`).
  const extra = nodeSettings(i.nodeOverrides ?? {}, i.node).extra_prompt;
  const base = extra ? `${own_}\n\n${extra}` : own_;
  const prompt =
    i.promptOverride ??
    (i.steer ? `${base}\n\nA note from the person running this work item:\n${i.steer}` : base);
  const built = buildArgv(provider, {
    prompt,
    context,
    model: choice.model,
    effort: choice.effort,
    permission_mode: choice.permission_mode,
    executable: choice.executable,
    resume_session_id: i.resumeSessionId ?? null,
    allowed_tools: i.allowedTools ?? null,
    denied_tools: i.deniedTools ?? null,
    permission_prompt: i.permissionPrompt ?? null,
    permission_hook: i.permissionHook ?? null,
  });
  if (!built.ok) return { ok: false, reason: `${i.task.path}: ${built.reason}` };
  return {
    ok: true,
    argv: built.argv,
    env: built.env,
    provider,
    choice,
    context,
    prompt,
    ignored: built.ignored,
  };
}
