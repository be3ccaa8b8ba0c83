import { readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { readInstalled } from '../core/addons/installed.js';
import { addonReadFs, cliVersion } from './addons.js';
import type { Problem } from '../contract/problems.js';
import { ChainProblems, listChains as chains, resolvedChain } from '../contract/routes/templates.js';
import type { ChainListAnswer, ResolvedChainAnswer } from '../contract/templates.js';
import type { FileLoad } from '../core/config/load-file.js';
import { locate } from '../core/config/tree.js';
import { validateConfigSet, type ConfigTexts } from '../core/config/validate-set.js';
import { parseCron } from '../core/cron/index.js';
import { ApiError, type JigClient } from './http.js';

/**
 * The config directory a command on this machine means: `JIG_CONFIG_DIR`, else the legacy
 * `JIG_TEMPLATES_DIR`, else `$JIG_HOME/config` (`~/.jig/config`). The same rule as the server's
 * home paths, kept here because the client does not reach into runtime/.
 */
export function defaultConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  const set = (v: string | undefined): v is string => v !== undefined && v.trim() !== '';
  if (set(env.JIG_CONFIG_DIR)) return resolve(env.JIG_CONFIG_DIR);
  if (set(env.JIG_TEMPLATES_DIR)) return resolve(env.JIG_TEMPLATES_DIR);
  const home = set(env.JIG_HOME) ? env.JIG_HOME : join(homedir(), '.jig');
  return resolve(home, 'config');
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The texts of every config file in a directory laid out as `$JIG_HOME/config`. */
export function readConfigTexts(dir: string): ConfigTexts {
  const read = (f: string): string | null => {
    try {
      return readFileSync(join(dir, f), 'utf8');
    } catch {
      return null;
    }
  };
  const chains: Record<string, string> = {};
  let names: string[] = [];
  try {
    names = readdirSync(join(dir, 'chains'));
  } catch {
    names = [];
  }
  for (const f of names.sort()) {
    if (!f.endsWith('.yaml')) continue;
    const text = read(join('chains', f));
    if (text !== null) chains[f.slice(0, -'.yaml'.length)] = text;
  }
  return {
    library: read('library.yaml'),
    chains,
    harnesses: read('harnesses.yaml'),
    policy: read('policy.yaml'),
    repos: read('repos.yaml'),
    intake: read('intake.yaml'),
    access: read('access.yaml'),
    theme: read('theme.yaml'),
  };
}

/**
 * The add-ons installed beside a config directory, so a chain naming `release:ship` lints as it
 * loads: `<dir>/../addons` when the directory is a home's `config/`, else the home's own content
 * store when `dir` is the config directory this machine's Jig reads. Null: no add-ons here.
 */
function installedAddonsFor(dir: string, env: NodeJS.ProcessEnv): ConfigTexts['addons'] {
  const here = resolve(dir);
  const beside = join(dirname(here), 'addons');
  const store = isDirectory(beside)
    ? beside
    : here === defaultConfigDir(env)
      ? resolve(set(env.JIG_HOME) ? env.JIG_HOME : join(homedir(), '.jig'), 'addons')
      : null;
  if (store === null) return null;
  return { version: cliVersion(), installed: readInstalled(addonReadFs, here, store).inputs };
}

const set = (v: string | undefined): v is string => v !== undefined && v.trim() !== '';

export interface LintReport {
  dir: string;
  files: string[];
  problems: Problem[];
  warnings: Problem[];
}

/** Crons, which the set leaves to the dialect's parser: at the value's place in the file. */
function cronChecks(
  load: FileLoad<{ schedules?: { cron: string }[]; triggers?: { cron: string }[] }>,
  list: 'schedules' | 'triggers',
): { problems: Problem[]; warnings: Problem[] } {
  const out = { problems: [] as Problem[], warnings: [] as Problem[] };
  const tree = load.tree;
  if (!tree) return out;
  load.model?.[list]?.forEach((s, i) => {
    const parsed = parseCron(s.cron);
    if (parsed.ok) return;
    const p: Problem = {
      path: `${list}.${i}`,
      field: 'cron',
      message: parsed.error.message,
      ...locate(tree, [list, i, 'cron'], 'value'),
    };
    // A legacy trigger that is only out of range is skipped when it fires (spec: rule 4).
    if (list === 'triggers' && parsed.error.kind === 'out_of_range')
      out.warnings.push({ ...p, message: `${p.message}; this trigger is skipped` });
    else out.problems.push(p);
  });
  return out;
}

/**
 * Checks a config directory without a server: every file, and every check across files, as one
 * set. Everything a save of these files would refuse is a problem.
 */
export function lintConfigDir(dir: string, env: NodeJS.ProcessEnv = process.env): LintReport {
  const set = validateConfigSet({ ...readConfigTexts(dir), addons: installedAddonsFor(dir, env) });
  const crons = [cronChecks(set.intake, 'schedules'), cronChecks(set.policy, 'triggers')];
  return {
    dir,
    files: Object.keys(set.files),
    problems: [...set.problems, ...crons.flatMap((c) => c.problems)],
    warnings: [...set.warnings, ...crons.flatMap((c) => c.warnings)],
  };
}

export const listChains = (c: JigClient): Promise<ChainListAnswer> => c.call(chains);

export type ResolvedRead =
  { ok: true; chain: ResolvedChainAnswer } | { ok: false; detail: string; problems: Problem[] };

/** One chain resolved; a chain that does not resolve answers its problems (HTTP 422), not an error. */
export async function getResolvedChain(c: JigClient, id: string): Promise<ResolvedRead> {
  const res = await c.send(resolvedChain, { params: { id } });
  if (res.status === 200) return { ok: true, chain: res.body };
  if (res.status === 422 && res.body.code === 'chain_unresolved') {
    const withProblems = ChainProblems.safeParse(res.body);
    return {
      ok: false,
      detail: res.body.detail,
      problems: withProblems.success ? withProblems.data.problems : [],
    };
  }
  throw new ApiError(res.status, res.body);
}
