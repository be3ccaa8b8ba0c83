import type { z } from 'zod';
import type { ChainTestReport } from '../../contract/chain-test.js';
import type { RepoEntry } from '../../contract/config/repos.js';
import { JigError } from '../../contract/errors.js';
import type { ChainTestBody } from '../../contract/routes/chain-test.js';
import type { Recording } from '../../contract/recording.js';
import { scriptFromRecording } from './replay.js';
import { ChildFailed, removeLeftovers, runChainTest } from './run-chain-test.js';

export interface ChainTestDeps {
  /** Throws 404 for a chain that does not exist, 422 for one that does not resolve. */
  resolvedChain(id: string): unknown;
  repos: { entries(): RepoEntry[]; find(path: string): RepoEntry | null };
  configDir: string;
  addonsDir: string;
  runDir: string;
  /**
   * The files of chain `id`'s open draft (config-relative path → text, null: removed); throws 404
   * when it has none, 422 when the draft does not check.
   */
  draftFiles(id: string): Promise<Record<string, string | null>>;
  /** The home's recording `name` (404 when there is none). */
  recording(name: string): Recording;
}

// One at a time per server: a test is a whole server and its agents; two would halve each.
let running: string | null = null;

/** `POST /api/templates/chains/{id}/test`: the chain and repository checked, then the run. */
export async function testChainEntry(
  d: ChainTestDeps,
  id: string,
  body: z.infer<typeof ChainTestBody>,
): Promise<ChainTestReport> {
  const replay = body.recording ?? (body.replay !== undefined ? d.recording(body.replay) : null);
  // A draft is checked as a whole (its chain may not be published yet); else the published chain.
  const overlay = body.draft ? await d.draftFiles(id) : null;
  if (!overlay) d.resolvedChain(id);
  const entries = d.repos.entries();
  const repo =
    body.repo !== undefined ? d.repos.find(body.repo) : entries.length === 1 ? (entries[0] ?? null) : null;
  if (!repo) {
    const known = entries.map((e) => e.path).join(', ') || 'none is connected';
    throw new JigError('validation_failed', {
      reason:
        body.repo !== undefined
          ? `repo: ${body.repo} is not a connected repository (${known})`
          : `repo: name the repository to test on (${known})`,
    });
  }
  if (running !== null) throw new JigError('chain_test_running', { chain: running });
  running = id;
  try {
    removeLeftovers(d.runDir);
    const { repo: _repo, draft: _draft, replay: _replay, recording: _recording, ...script } = body;
    return await runChainTest({
      chain: id,
      script: replay
        ? {
            ...scriptFromRecording(replay),
            expect: script.expect,
            commands: script.commands,
            timeout_s: script.timeout_s,
          }
        : script,
      ...(replay ? { replay } : {}),
      ...(overlay ? { overlay } : {}),
      configDir: d.configDir,
      addonsDir: d.addonsDir,
      repo,
      tmp: d.runDir,
    });
  } catch (err) {
    if (err instanceof ChildFailed) throw new JigError('chain_test_unavailable', { reason: err.message });
    throw err;
  } finally {
    running = null;
  }
}
