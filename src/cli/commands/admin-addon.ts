import { Argument, type Command } from 'commander';
import {
  listAddons,
  patchAddon,
  runAutoUpdate,
  uninstallAddon,
  validateAddons,
  type ValidateReport,
} from '../../client/addons.js';
import { JigClient } from '../../client/http.js';
import { defaultConfigDir, isDirectory } from '../../client/templates.js';
import { EXIT_FAIL, EXIT_OK, EXIT_USAGE, printJson } from '../output.js';
import { outputStyle, table } from '../table.js';
import { registerAddonCollection } from './admin-addon-collection.js';
import { registerAddonInstall } from './admin-addon-install.js';
import { confirm } from '../confirm.js';
import { problemLine, problemText, runAddonVerb, shownPlain } from './admin-addon-review.js';

/** `validate`'s lines: per add-on its `name version digest`, else its problems; then what was skipped. */
export function formatValidate(r: ValidateReport): string {
  const out = r.problems.map(problemLine);
  for (const a of r.addons) {
    if (a.problems.length === 0) out.push(`${a.name} ${a.version ?? '?'} ${a.digest}`);
    else out.push(...a.problems.map(problemLine));
    out.push(...a.skipped.map((s) => `skipped: ${s}`));
  }
  if (r.kind === 'collection' && r.addons.length === 0 && r.problems.length === 0)
    out.push('the collection lists no add-ons');
  return shownPlain(`${out.join('\n')}\n`);
}

const failed = (r: ValidateReport): boolean =>
  r.problems.length > 0 || r.addons.some((a) => a.problems.length > 0);

/**
 * `jig admin addon …` (spec: `service admin addon`; ADR 0020): validate, collections, the reviewed
 * install and update, list, auto-update, enable, disable, uninstall.
 */
export function registerAddon(admin: Command): void {
  const addon = admin
    .command('addon')
    .description('add-ons: packaged chains, library, profiles and skills, installed from collections');

  addon
    .command('validate')
    .argument('<dir>', 'an add-on directory (.jig/addon.json), or a collection root (.jig/collection.json)')
    .description(
      'run the install checks without a server: prints `name version sha256:…` per add-on, else `error: file:line: message` per problem (exit 1); checks `requires` against this home when it has a harnesses.yaml, else prints `skipped:` lines',
    )
    .option(
      '--json',
      'print {dir, kind, checked_against, problems, addons: [{dir, name, version, digest, problems, skipped}]}',
    )
    .action((dir: string, opts: { json?: boolean }) =>
      runAddonVerb(async () => {
        if (!isDirectory(dir)) {
          process.stderr.write(`jig: no directory at ${dir}\n`);
          return EXIT_USAGE;
        }
        const r = validateAddons(dir, defaultConfigDir());
        if (opts.json) printJson(r);
        else process.stdout.write(formatValidate(r));
        return failed(r) ? EXIT_FAIL : EXIT_OK;
      }),
    );

  registerAddonCollection(addon);
  registerAddonInstall(addon);

  addon
    .command('list')
    .description('list the installed add-ons: namespace, add-on@collection, version, state, pinned commit')
    .option('--json', 'print {addons, collections} as the API answers it')
    .action((opts: { json?: boolean }) =>
      runAddonVerb(async () => {
        const a = await listAddons(new JigClient());
        if (opts.json) printJson(a);
        else if (a.addons.length === 0)
          process.stdout.write(
            'no add-ons installed; install one with `jig admin addon install NAME@COLLECTION`\n',
          );
        else
          process.stdout.write(
            table(
              outputStyle(),
              ['NAMESPACE', 'ADD-ON', 'VERSION', 'STATE', 'COMMIT'],
              a.addons.map((x) => [
                x.namespace,
                `${x.addon}@${x.collection}`,
                x.version,
                x.state === 'problems' && x.problems[0] ? `problems: ${problemText(x.problems[0])}` : x.state,
                x.commit ? x.commit.slice(0, 12) : 'dir',
              ]),
            ),
          );
        return EXIT_OK;
      }),
    );

  addon
    .command('auto-update')
    .argument('[namespace]', 'the installed add-on to turn auto-update on or off for')
    .addArgument(new Argument('[state]', '`on` or `off`').choices(['on', 'off']))
    .description(
      'with NAMESPACE on|off: apply its updates that add no reach on their own, or not; with no argument: apply now every such update auto-update is on for, and say what was skipped and why',
    )
    .option('--json', 'print the API answer')
    .action((namespace: string | undefined, state: 'on' | 'off' | undefined, opts: { json?: boolean }) =>
      runAddonVerb(async () => {
        const client = new JigClient();
        if (namespace !== undefined) {
          if (state === undefined) {
            process.stderr.write('jig: auto-update NAMESPACE takes on or off\n');
            return EXIT_USAGE;
          }
          const a = await patchAddon(client, namespace, { auto_update: state === 'on' });
          if (opts.json) printJson(a);
          else process.stdout.write(`auto-update ${state} for ${a.namespace}\n`);
          return EXIT_OK;
        }
        const r = await runAutoUpdate(client);
        if (opts.json) printJson(r);
        else {
          const lines = [
            ...r.applied.map((x) => `applied ${x.namespace} ${x.from} → ${x.to}`),
            ...r.skipped.map((x) => `skipped ${x.namespace} ${x.to}: ${x.reason}`),
          ];
          if (lines.length === 0) lines.push('nothing to apply');
          process.stdout.write(`${lines.join('\n')}\n`);
          for (const e of r.errors)
            process.stderr.write(`jig: collection ${e.collection} could not be read: ${e.message}\n`);
        }
        return r.errors.length > 0 ? EXIT_FAIL : EXIT_OK;
      }),
    );

  for (const [verb, enabled] of [
    ['disable', false],
    ['enable', true],
  ] as const)
    addon
      .command(verb)
      .argument('<namespace>', 'the installed add-on')
      .description(
        enabled
          ? 'offer an installed add-on again'
          : 'stop offering an installed add-on (kept installed); refused while your configuration uses its namespace: exit 1',
      )
      .option('--json', 'print the add-on as the API answers it')
      .action((namespace: string, opts: { json?: boolean }) =>
        runAddonVerb(async () => {
          const a = await patchAddon(new JigClient(), namespace, { enabled });
          if (opts.json) printJson(a);
          else process.stdout.write(`${verb}d ${a.namespace}\n`);
          return EXIT_OK;
        }),
      );

  addon
    .command('uninstall')
    .argument('<namespace>', 'the installed add-on')
    .description(
      'uninstall an add-on; refused while your configuration uses its namespace (exit 1). Items already running keep their version until they end',
    )
    .option('-y, --yes', 'do not ask')
    .option('--json', 'print {uninstalled: NAMESPACE}')
    .action((namespace: string, opts: { yes?: boolean; json?: boolean }) =>
      runAddonVerb(async () => {
        if (!opts.yes) {
          if (process.stdin.isTTY !== true) {
            process.stderr.write(
              `jig: addon uninstall asks first and there is no terminal to ask on; pass -y to uninstall ${namespace}\n`,
            );
            return EXIT_FAIL;
          }
          if (!(await confirm(`Uninstall ${namespace}? Items already running keep their version. [y/N] `))) {
            process.stderr.write(`jig: ${namespace} not uninstalled\n`);
            return EXIT_FAIL;
          }
        }
        await uninstallAddon(new JigClient(), namespace);
        if (opts.json) printJson({ uninstalled: namespace });
        else process.stdout.write(`uninstalled ${namespace}\n`);
        return EXIT_OK;
      }),
    );
}
