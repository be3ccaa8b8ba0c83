import { Argument, type Command } from 'commander';
import { later } from '../lazy.js';

const onOff = (): Argument => new Argument('<state>', '`on` or `off`').choices(['on', 'off']);

/** `jig admin addon collection …`: where add-ons come from. */
export function registerAddonCollection(addon: Command): void {
  const coll = addon
    .command('collection')
    .description('the collections add-ons are installed from: directories or git repositories');

  coll
    .command('add')
    .argument(
      '<source>',
      'a directory, a git URL (https://, ssh://, git@host:path, file://) or GitHub owner/repo',
    )
    .description(
      'add a collection (it holds .jig/collection.json); a git one is cloned and its commit pinned',
    )
    .option('--ref <ref>', 'git branch, tag or commit to follow (git sources)')
    .option('--json', 'print the collection as the API answers it')
    .action(later(() => import('./admin-addon-collection-actions.js'), 'collectionAdd'));

  coll
    .command('list')
    .description('list the collections: source, ref, auto-update, pinned commit and the add-ons each lists')
    .option('--json', 'print {collections} as the API answers them')
    .action(later(() => import('./admin-addon-collection-actions.js'), 'collectionList'));

  coll
    .command('remove')
    .argument('<name>', 'the collection')
    .description('remove a collection (refused while an add-on from it is installed: exit 1)')
    .option('--json', 'print {removed: NAME}')
    .action(later(() => import('./admin-addon-collection-actions.js'), 'collectionRemove'));

  coll
    .command('auto-update')
    .argument('<name>', 'the collection')
    .addArgument(onOff())
    .description("apply its add-ons' updates that add no reach on their own (on), or only when asked (off)")
    .option('--json', 'print the collection as the API answers it')
    .action(later(() => import('./admin-addon-collection-actions.js'), 'collectionAutoUpdate'));
}
