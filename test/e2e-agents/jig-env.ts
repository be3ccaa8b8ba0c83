import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { harnessesYaml } from '../helpers/agents.js';
import { removeHome as removeHomeOf } from '../helpers/remove-home.js';
import { gitEnv } from '../helpers/git.js';
import { cacheDir, cliEnv, type CliId } from './clis.js';
import type { MockModelServer } from './mock-model-server.js';

/*
 * What Jig needs, beyond its own launch, to drive the real CLIs against the mock model server: the
 * harness entries pointing at the pinned executables, and a repository `env:` (the launch
 * environment of every task) with the mock's base URL and key, a private HOME for the CLI's own
 * state, and the CLI's retry knobs turned off so an error answer ends the run at once.
 */

const runRoot = join(cacheDir, 'runs');

/** A private home for the CLIs of one test, under .cache (Codex refuses a CODEX_HOME in the temp dir). */
export function privateHome(prefix: string): string {
  mkdirSync(runRoot, { recursive: true });
  return mkdtempSync(join(runRoot, `${prefix}-`));
}

/** Removes a CLI home once nothing runs in it (a CLI session outlives the Jig server that started it). */
export const removeHome = (dir: string): Promise<void> => removeHomeOf(dir, { warn: true });

/** The seeded harnesses.yaml with the real executables (Codex allowed to write .git: it commits). */
export function realHarnesses(bins: Partial<Record<CliId, string>>): string {
  const doc = parseDocument(harnessesYaml(bins));
  if (bins.codex) doc.setIn(['harnesses', 'codex', 'defaults', 'permission_mode'], 'danger-full-access');
  return doc.toString();
}

/** The repository env for all three CLIs, pointed at one mock (only the installed ones are used). */
export function mockEnv(home: string, mock: MockModelServer): Record<string, string> {
  return {
    HOME: home,
    ...gitEnv,
    ...cliEnv('claude', home, mock),
    ...cliEnv('codex', home, mock),
    // Gemini's also sets TMPDIR inside the private home.
    ...cliEnv('gemini', home, mock),
  };
}

/** A string as one single-quoted shell word. */
export const shq = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;

/** A shell command writing Jig's result file (and first the task's document, when given). */
export function resultCmd(result: Record<string, unknown>, artifact?: string): string {
  const doc = artifact === undefined ? '' : `printf '%s' ${shq(artifact)} > "$JIG_ARTIFACT_PATH" && `;
  return `${doc}printf '%s' ${shq(JSON.stringify(result))} > "$JIG_RESULT_PATH"`;
}

/** A session's raw log (the CLI's stdout) from Jig's home. */
export function sessionLog(jigHome: string, sessionId: string): string {
  const find = (dir: string): string | null => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        const got = find(p);
        if (got) return got;
      } else if (e.name === `${sessionId}.log`) return p;
    }
    return null;
  };
  const p = existsSync(jigHome) ? find(jigHome) : null;
  return p ? readFileSync(p, 'utf8') : '';
}

/** The JSON lines of a CLI's stream. */
export function streamEvents(log: string): Record<string, unknown>[] {
  return log
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
}

/** All text in a JSON value, joined. */
export function texts(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(texts).join('\n');
  if (v && typeof v === 'object') return Object.values(v).map(texts).join('\n');
  return '';
}
