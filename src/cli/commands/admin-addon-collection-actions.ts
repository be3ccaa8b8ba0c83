import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
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

/** `jig admin addon collection add`. */
export function collectionAdd(source: string, opts: { ref?: string; json?: boolean }): Promise<void> {
  return runAddonVerb(async () => {
    const c = await addCollection(new JigClient(), sourceArg(source), opts.ref);
    if (opts.json) printJson(c);
    else
      process.stdout.write(
        `added collection ${c.name} from ${c.source}${c.commit ? ` at ${c.commit.slice(0, 12)}` : ''}: ${listed(c)}\n`,
      );
    return EXIT_OK;
  });
}

/** `jig admin addon collection list`. */
export function collectionList(opts: { json?: boolean }): Promise<void> {
  return runAddonVerb(async () => {
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
  });
}

/** `jig admin addon collection remove`. */
export function collectionRemove(name: string, opts: { json?: boolean }): Promise<void> {
  return runAddonVerb(async () => {
    await removeCollection(new JigClient(), name);
    if (opts.json) printJson({ removed: name });
    else process.stdout.write(`removed collection ${name}\n`);
    return EXIT_OK;
  });
}

/** `jig admin addon collection auto-update`. */
export function collectionAutoUpdate(
  name: string,
  state: 'on' | 'off',
  opts: { json?: boolean },
): Promise<void> {
  return runAddonVerb(async () => {
    const c = await setCollectionAutoUpdate(new JigClient(), name, state === 'on');
    if (opts.json) printJson(c);
    else process.stdout.write(`auto-update ${state} for collection ${c.name}\n`);
    return EXIT_OK;
  });
}
