import { resolve } from 'node:path';
import type { Command } from 'commander';
import { JigClient } from '../../client/http.js';
import { connectRepo, disconnectRepo, listRepos } from '../../client/repos.js';
import { EXIT_OK, EXIT_USAGE, printJson, runVerb } from '../output.js';
import { repoOfCwd } from '../repo-of-cwd.js';

interface ConnectOpts {
  testCommand?: string;
  setupCommand?: string;
  tests?: boolean;
  chain?: string;
  name?: string;
  json?: boolean;
}

export function registerRepo(program: Command): void {
  const repo = program.command('repo').description('connect and list repositories');

  repo
    .command('connect')
    .argument('[path]', 'repository to connect (default: the checkout you are in)')
    .description('connect a repository, or re-probe a connected one')
    .option('--test-command <cmd>', 'what verification runs')
    .option('--setup-command <cmd>', 'what runs in each new worktree ("" for nothing)')
    .option('--no-tests', 'the repository has no tests (test_command: "")')
    .option('--chain <id>', 'default chain for new items')
    .option('--name <name>', 'display name')
    .option('--json', 'print the API answer')
    .action((path: string | undefined, opts: ConnectOpts) =>
      runVerb(async () => {
        const target = path ? resolve(path) : repoOfCwd();
        if (!target) {
          process.stderr.write('jig: not in a git checkout; name the repository to connect\n');
          return EXIT_USAGE;
        }
        if (opts.tests === false && opts.testCommand !== undefined) {
          process.stderr.write('jig: --no-tests and --test-command contradict each other\n');
          return EXIT_USAGE;
        }
        const { repo: r, created } = await connectRepo(new JigClient(), {
          path: target,
          test_command: opts.tests === false ? '' : opts.testCommand,
          setup_command: opts.setupCommand,
          default_chain: opts.chain,
          name: opts.name,
        });
        if (opts.json) printJson(r);
        else {
          const tests =
            r.test_command === null ? 'undecided' : r.test_command === '' ? 'none' : r.test_command;
          const setup =
            r.setup_command === null ? 'undecided' : r.setup_command === '' ? 'nothing' : r.setup_command;
          const state = r.enabled
            ? 'enabled'
            : 'disabled until you decide a test command (--test-command CMD, or --no-tests)';
          process.stdout.write(
            `${created ? 'connected' : 'updated'} ${r.path}: ${state}; tests: ${tests}; setup: ${setup}\n`,
          );
        }
        return EXIT_OK;
      }),
    );

  repo
    .command('list')
    .description('list connected repositories')
    .option('--json', 'print the API answer')
    .action((opts: { json?: boolean }) =>
      runVerb(async () => {
        const r = await listRepos(new JigClient());
        if (opts.json) printJson(r);
        else {
          for (const x of r.repos) {
            const flags = [x.enabled ? 'enabled' : 'disabled', x.exists ? null : 'missing on disk']
              .filter(Boolean)
              .join(', ');
            process.stdout.write(`${x.name}\t${x.path}\t${flags}\t${x.open_items} open\n`);
          }
          if (r.repos.length === 0)
            process.stdout.write('no repositories connected; `jig repo connect PATH`\n');
          if (r.suggested) process.stdout.write(`not connected: ${r.suggested.path} (jig repo connect)\n`);
        }
        return EXIT_OK;
      }),
    );

  repo
    .command('disconnect')
    .argument('[path]', 'repository to disconnect (default: the checkout you are in)')
    .description('disconnect a repository (refused while its items are not done, cancelled or abandoned)')
    .option('--json', 'print a JSON answer')
    .action((path: string | undefined, opts: { json?: boolean }) =>
      runVerb(async () => {
        const target = path ? resolve(path) : repoOfCwd();
        if (!target) {
          process.stderr.write('jig: not in a git checkout; name the repository to disconnect\n');
          return EXIT_USAGE;
        }
        await disconnectRepo(new JigClient(), target);
        if (opts.json) printJson({ disconnected: target });
        else process.stdout.write(`disconnected ${target}\n`);
        return EXIT_OK;
      }),
    );
}
