import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { Argument, type Command } from 'commander';
import type { CollectionInfo } from '../../contract/addons-api.js';
import { addCollection, listAddons, removeCollection, setCollectionAutoUpdate } from '../../client/addons.js';
import { JigClient } from '../../client/http.js';
import { EXIT_OK, printJson } from '../output.js';
import { outputStyle, table } from '../table.js';
import { runAddonVerb } from './admin-addon-review.js';

/**
 * What `collection add` sends: a URL (`https://`, `ssh://`, `file://`, `git@host:path`) as typed;
 * a path — one written as a path, or any that exists here — made absolute against this shell's
 * directory (the server's own directory means nothing to the person typing); else as typed (the
 * `owner/repo` shorthand).
 */
export function sourceArg(text: string, cwd = process.cwd()): string {
  const t = text.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(t) || /^[^\s/@]+@[^\s/:]+:/.test(t)) return t;
  if (isAbsolute(t) || /^\.\.?(\/|$)/.test(t) || existsSync(resolve(cwd, t))) return resolve(cwd, t);
  return t;
}

const onOff = (): Argument => new Argument('<state>', '`on` or `off`').choices(['on', 'off']);

/** The add-ons a collection lists: `release 1.0.0 (installed as release, rel)`. */
function listed(c: CollectionInfo): string {
  if (c.addons.length === 0) return 'no add-ons';
  return c.addons
    .map(
      (a) =>
        `${a.name} ${a.version ?? '(unreadable)'}${a.installed_as.length ? ` (installed as ${a.installed_as.join(', ')})` : ''}`,
    )
    .join(', ');
}

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
    .action((source: string, opts: { ref?: string; json?: boolean }) =>
      runAddonVerb(async () => {
        const c = await addCollection(new JigClient(), sourceArg(source), opts.ref);
        if (opts.json) printJson(c);
        else
          process.stdout.write(
            `added collection ${c.name} from ${c.source}${c.commit ? ` at ${c.commit.slice(0, 12)}` : ''}: ${listed(c)}\n`,
          );
        return EXIT_OK;
      }),
    );

  coll
    .command('list')
    .description('list the collections: source, ref, auto-update, pinned commit and the add-ons each lists')
    .option('--json', 'print {collections} as the API answers them')
    .action((opts: { json?: boolean }) =>
      runAddonVerb(async () => {
        const { collections } = await listAddons(new JigClient());
        if (opts.json) printJson({ collections });
        else if (collections.length === 0)
          process.stdout.write('no collections; add one with `jig admin addon collection add`\n');
        else
          process.stdout.write(
            table(
              outputStyle(),
              ['NAME', 'SOURCE', 'REF', 'AUTO-UPDATE', 'COMMIT', 'ADD-ONS'],
              collections.map((c) => [
                c.name,
                c.source,
                c.ref ?? '-',
                c.auto_update ? 'on' : 'off',
                c.commit ? c.commit.slice(0, 12) : 'dir',
                c.error ? `cannot be read: ${c.error}` : listed(c),
              ]),
            ),
          );
        return EXIT_OK;
      }),
    );

  coll
    .command('remove')
    .argument('<name>', 'the collection')
    .description('remove a collection (refused while an add-on from it is installed: exit 1)')
    .option('--json', 'print {removed: NAME}')
    .action((name: string, opts: { json?: boolean }) =>
      runAddonVerb(async () => {
        await removeCollection(new JigClient(), name);
        if (opts.json) printJson({ removed: name });
        else process.stdout.write(`removed collection ${name}\n`);
        return EXIT_OK;
      }),
    );

  coll
    .command('auto-update')
    .argument('<name>', 'the collection')
    .addArgument(onOff())
    .description("apply its add-ons' updates that add no reach on their own (on), or only when asked (off)")
    .option('--json', 'print the collection as the API answers it')
    .action((name: string, state: 'on' | 'off', opts: { json?: boolean }) =>
      runAddonVerb(async () => {
        const c = await setCollectionAutoUpdate(new JigClient(), name, state === 'on');
        if (opts.json) printJson(c);
        else process.stdout.write(`auto-update ${state} for collection ${c.name}\n`);
        return EXIT_OK;
      }),
    );
}
