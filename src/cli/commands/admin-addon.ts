import { Argument, type Command } from 'commander';
import { later } from '../lazy.js';
import { registerAddonCollection } from './admin-addon-collection.js';
import { registerAddonInstall } from './admin-addon-install.js';

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
    .action(later(() => import('./admin-addon-actions.js'), 'addonValidate'));

  registerAddonCollection(addon);
  registerAddonInstall(addon);

  addon
    .command('list')
    .description('list the installed add-ons: namespace, add-on@collection, version, state, pinned commit')
    .option('--json', 'print {addons, collections} as the API answers it')
    .action(later(() => import('./admin-addon-actions.js'), 'addonList'));

  addon
    .command('auto-update')
    .argument('[namespace]', 'the installed add-on to turn auto-update on or off for')
    .addArgument(new Argument('[state]', '`on` or `off`').choices(['on', 'off']))
    .description(
      'with NAMESPACE on|off: apply its updates that add no reach on their own, or not; with no argument: apply now every such update auto-update is on for, and say what was skipped and why',
    )
    .option('--json', 'print the API answer')
    .action(later(() => import('./admin-addon-actions.js'), 'addonAutoUpdate'));

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
      .action(later(() => import('./admin-addon-actions.js'), 'addonEnable', verb, enabled));

  addon
    .command('uninstall')
    .argument('<namespace>', 'the installed add-on')
    .description(
      'uninstall an add-on; refused while your configuration uses its namespace (exit 1). Items already running keep their version until they end',
    )
    .option('-y, --yes', 'do not ask')
    .option('--json', 'print {uninstalled: NAMESPACE}')
    .action(later(() => import('./admin-addon-actions.js'), 'addonUninstall'));
}
