import { resolve } from 'node:path';
import { JigClient } from '../../client/http.js';
import { checkForge, disconnectRepo, listRepos } from '../../client/repos.js';
import { EXIT_FAIL, EXIT_OK, EXIT_USAGE, printJson, runVerb } from '../output.js';
import { repoOfCwd } from '../repo-of-cwd.js';
import { outputStyle, paint, table } from '../table.js';

/** `jig repo list`. */
export function repoList(opts: { all?: boolean; json?: boolean }): Promise<void> {
  return runVerb(async () => {
    const r = await listRepos(new JigClient());
    const repos = opts.all ? r.repos : r.repos.filter((x) => x.managed);
    if (opts.json) {
      printJson({ ...r, repos });
      return EXIT_OK;
    }
    const style = outputStyle();
    const rows = repos.map((x) => [
      x.name,
      x.path,
      {
        text: [
          x.enabled ? 'enabled' : 'disabled',
          x.exists ? null : 'missing on disk',
          x.managed ? null : 'found',
        ]
          .filter(Boolean)
          .join(', '),
        colour: !x.exists ? ('red' as const) : x.enabled ? ('green' as const) : ('yellow' as const),
      },
      x.test_command === null ? 'undecided' : x.test_command === '' ? 'none' : x.test_command,
      `${x.open_items} open`,
    ]);
    if (repos.length > 0)
      process.stdout.write(table(style, ['NAME', 'PATH', 'STATE', 'TESTS', 'ITEMS'], rows));
    else process.stdout.write('no repositories connected; `jig repo connect PATH`\n');
    const hidden = r.repos.length - repos.length;
    if (hidden > 0) process.stdout.write(paint(style, 'dim', `(${hidden} found by Jig not shown; --all)\n`));
    // The checkout this command runs in, not the server's: the server's working folder is often
    // Jig's own clone, which nobody means to connect.
    const here = repoOfCwd();
    if (here && !r.repos.some((x) => resolve(x.path) === resolve(here)))
      process.stdout.write(`not connected: ${here} (jig repo connect)\n`);
    if (r.workspaces.length > 0) {
      const ws = r.workspaces.map((w) => [
        w.name,
        w.root,
        w.members.map((m) => `${m.name} (${m.repository} at ${m.path})`).join(', ') || '-',
        {
          text: w.ready ? 'ready' : w.problems.join('; '),
          colour: w.ready ? ('green' as const) : ('yellow' as const),
        },
      ]);
      process.stdout.write(`\n${table(style, ['WORKSPACE', 'ROOT', 'MEMBERS', 'STATE'], ws)}`);
    }
    for (const w of r.warnings) process.stderr.write(`jig: ${w}\n`);
    return EXIT_OK;
  });
}

/** `jig repo disconnect`. */
export function repoDisconnect(path: string | undefined, opts: { json?: boolean }): Promise<void> {
  return runVerb(async () => {
    const target = path ? resolve(path) : repoOfCwd();
    if (!target) {
      process.stderr.write('jig: not in a git checkout; name the repository to disconnect\n');
      return EXIT_USAGE;
    }
    await disconnectRepo(new JigClient(), target);
    if (opts.json) printJson({ disconnected: target });
    else process.stdout.write(`disconnected ${target}\n`);
    return EXIT_OK;
  });
}

/** `jig repo forge`. */
export function repoForge(path: string | undefined, opts: { json?: boolean }): Promise<void> {
  return runVerb(async () => {
    const target = path ? resolve(path) : repoOfCwd();
    if (!target) {
      process.stderr.write('jig: not in a git checkout; name the repository\n');
      return EXIT_USAGE;
    }
    const f = await checkForge(new JigClient(), target);
    if (opts.json) printJson(f);
    else if (f.ready)
      process.stdout.write(`${f.forge} ${f.project} at ${f.api_url}; token from ${f.token_source}\n`);
    else
      process.stdout.write(
        `${f.forge ? `${f.forge} ${f.project} at ${f.api_url}; ` : ''}not ready: ${f.problem}\n`,
      );
    return f.ready ? EXIT_OK : EXIT_FAIL;
  });
}
