import { realpathSync } from 'node:fs';
import { printAct } from '../next-step.js';
import { resolve } from 'node:path';
import type { ProbeAnswer, RepoView } from '../../contract/repos.js';
import { JigClient } from '../../client/http.js';
import { connectRepo, listRepos, probeRepo } from '../../client/repos.js';
import { EXIT_FAIL, EXIT_OK, EXIT_USAGE, printJson, runVerb } from '../output.js';
import { repoOfCwd } from '../repo-of-cwd.js';
import { rehearse } from './repo-verify.js';
import { confirm as ask } from '../confirm.js';

interface ConnectOpts {
  testCommand?: string;
  setupCommand?: string;
  tests?: boolean;
  chain?: string;
  name?: string;
  verify?: boolean;
  yes?: boolean;
  json?: boolean;
}

const canonical = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
};

/** A command as the plan shows it: the value, and where it comes from. */
interface Planned {
  value: string | null;
  from: string;
}

function plan(
  flag: string | undefined,
  saved: string | null | undefined,
  probed: ProbeAnswer['test_command'],
): Planned {
  if (flag !== undefined) return { value: flag, from: 'given' };
  if (saved !== null && saved !== undefined) return { value: saved, from: 'as connected' };
  if (probed) return { value: probed.value, from: probed.reason };
  return { value: null, from: 'nothing detected' };
}

const shown = (p: Planned, none: string): string =>
  `${p.value === null ? 'undecided' : p.value === '' ? none : p.value} (${p.from})`;

function summary(r: RepoView, created: boolean): string {
  const tests = r.test_command === null ? 'undecided' : r.test_command === '' ? 'none' : r.test_command;
  const setup = r.setup_command === null ? 'undecided' : r.setup_command === '' ? 'nothing' : r.setup_command;
  const state = r.enabled
    ? 'enabled'
    : 'disabled until you decide a test command (--test-command CMD, or --no-tests)';
  return `${created ? 'connected' : 'updated'} ${r.path}: ${state}; tests: ${tests}; setup: ${setup}\n`;
}

/** `jig repo connect`. */
export function repoConnect(path: string | undefined, opts: ConnectOpts): Promise<void> {
  return runVerb(async () => {
    const target = path ? resolve(path) : repoOfCwd();
    if (!target) {
      process.stderr.write('jig: not in a git checkout; name the repository to connect\n');
      return EXIT_USAGE;
    }
    if (opts.tests === false && opts.testCommand !== undefined) {
      process.stderr.write('jig: --no-tests and --test-command contradict each other\n');
      return EXIT_USAGE;
    }
    const c = new JigClient();
    const probe = await probeRepo(c, target);
    if (!probe.is_git) {
      process.stderr.write(`jig: ${probe.path} is not a git repository\n`);
      return EXIT_USAGE;
    }
    if (!probe.has_commit) {
      process.stderr.write(`jig: ${probe.path} has no commit yet; commit something first\n`);
      return EXIT_USAGE;
    }
    const interactive = process.stdin.isTTY === true;
    if (!opts.yes && !interactive) {
      process.stderr.write(
        'jig: repo connect asks before connecting and there is no terminal to ask on; pass -y to connect as detected\n',
      );
      return EXIT_USAGE;
    }
    const saved = probe.connected
      ? (await listRepos(c)).repos.find((r) => canonical(r.path) === canonical(probe.path))
      : undefined;
    const tests = plan(opts.tests === false ? '' : opts.testCommand, saved?.test_command, probe.test_command);
    const setup = plan(opts.setupCommand, saved?.setup_command, probe.setup_command);
    if (!opts.yes) {
      const lines = [
        `${probe.connected ? 'already connected (re-probing fills in what is undecided)' : 'connect'} ${probe.path}`,
        `  name    ${opts.name ?? saved?.name ?? probe.name}`,
        `  branch  ${probe.default_branch ?? 'unknown'}`,
        `  tests   ${shown(tests, 'none')}`,
        `  setup   ${shown(setup, 'nothing')}`,
        `  chain   ${opts.chain ?? saved?.default_chain ?? `${probe.default_chain.value} (${probe.default_chain.reason})`}`,
      ];
      if (probe.forge) lines.push(`  forge   ${probe.forge.value} (${probe.forge.reason})`);
      if (tests.value === null)
        lines.push(
          '  the repo stays disabled until a test command is decided (--test-command CMD, or --no-tests)',
        );
      process.stderr.write(`${lines.join('\n')}\n`);
    }
    if (opts.verify) {
      const r = await rehearse(probe.path, setup.value, tests.value);
      if (!r.ok) {
        process.stderr.write(`jig: verify failed: ${r.failed}; not connected\n`);
        return EXIT_FAIL;
      }
      process.stderr.write('jig: verify passed\n');
    }
    if (!opts.yes && !(await ask('Connect? [y/N] '))) {
      process.stderr.write('jig: not connected\n');
      return EXIT_FAIL;
    }
    const { repo: r, created } = await connectRepo(c, {
      path: probe.path,
      test_command: opts.tests === false ? '' : opts.testCommand,
      setup_command: opts.setupCommand,
      default_chain: opts.chain,
      name: opts.name,
    });
    if (opts.json) printJson(r);
    else
      printAct(
        summary(r, created).trimEnd(),
        r.enabled ? `jig item create "what to do" --repo ${r.path}` : null,
      );
    return EXIT_OK;
  });
}
