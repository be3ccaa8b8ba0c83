import { InvalidArgumentError, type Command } from 'commander';
import { later } from '../lazy.js';

const IDENT = /^[a-z][a-z0-9_-]*$/;

/** `NAME@COLLECTION`, both identifiers. */
function addonRef(v: string): { addon: string; collection: string } {
  const [addon = '', collection = '', ...more] = v.trim().split('@');
  if (more.length > 0 || !IDENT.test(addon) || !IDENT.test(collection))
    throw new InvalidArgumentError('expected NAME@COLLECTION, e.g. release@acme');
  return { addon, collection };
}

function identifier(v: string): string {
  if (!IDENT.test(v)) throw new InvalidArgumentError('a namespace is lowercase letters, digits, - and _');
  return v;
}

/** `jig admin addon install` and `update`: each prints the server's review, asks, then applies it. */
export function registerAddonInstall(addon: Command): void {
  addon
    .command('install')
    .argument('<name@collection>', 'the add-on and the collection it is in (`release@acme`)', addonRef)
    .description(
      'print the review of an add-on (its reach and every prompt and skill), ask, then install it; exits 1 when it cannot be installed or is not applied',
    )
    .option(
      '--as <namespace>',
      'install under this namespace instead of its name (a second copy)',
      identifier,
    )
    .option('-y, --yes', 'do not ask (the review is printed all the same)')
    .option('--json', 'print {review, installed} (installed: null when not applied)')
    .action(later(() => import('./admin-addon-install-actions.js'), 'addonInstall'));

  addon
    .command('update')
    .argument('[namespaces...]', 'the installed add-ons to update (default: each one an update waits for)')
    .description(
      'update installed add-ons to the version their collection has: per add-on, print the review (reach added `+` and removed `-`, each changed prompt or skill as a diff), ask, apply. --check only lists what waits (exit 1 when one does)',
    )
    .option('--check', 'list the updates that wait and change nothing; exits 1 when one waits')
    .option('-y, --yes', 'do not ask (each review is printed all the same)')
    .option('--json', 'print the answer: --check {updates, errors}; else {updates: [{review, updated}]}')
    .action(later(() => import('./admin-addon-install-actions.js'), 'addonUpdate'));
}
