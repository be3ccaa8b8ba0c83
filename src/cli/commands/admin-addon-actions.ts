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

/** `jig admin addon validate`. */
export function addonValidate(dir: string, opts: { json?: boolean }): Promise<void> {
  return runAddonVerb(async () => {
    if (!isDirectory(dir)) {
      process.stderr.write(`jig: no directory at ${dir}\n`);
      return EXIT_USAGE;
    }
    const r = validateAddons(dir, defaultConfigDir());
    if (opts.json) printJson(r);
    else process.stdout.write(formatValidate(r));
    return failed(r) ? EXIT_FAIL : EXIT_OK;
  });
}

/** `jig admin addon list`. */
export function addonList(opts: { json?: boolean }): Promise<void> {
  return runAddonVerb(async () => {
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
  });
}

/** `jig admin addon auto-update`. */
export function addonAutoUpdate(
  namespace: string | undefined,
  state: 'on' | 'off' | undefined,
  opts: { json?: boolean },
): Promise<void> {
  return runAddonVerb(async () => {
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
  });
}

/** `jig admin addon enable` and `disable`. */
export function addonEnable(
  verb: 'enable' | 'disable',
  enabled: boolean,
  namespace: string,
  opts: { json?: boolean },
): Promise<void> {
  return runAddonVerb(async () => {
    const a = await patchAddon(new JigClient(), namespace, { enabled });
    if (opts.json) printJson(a);
    else process.stdout.write(`${verb}d ${a.namespace}\n`);
    return EXIT_OK;
  });
}

/** `jig admin addon uninstall`. */
export function addonUninstall(namespace: string, opts: { yes?: boolean; json?: boolean }): Promise<void> {
  return runAddonVerb(async () => {
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
  });
}
