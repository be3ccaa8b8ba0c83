import type { AddonReview } from '../../contract/addon-review.js';
import type { InstalledAddon } from '../../contract/addons-api.js';
import { applyUpdate, checkUpdates, installAddon, reviewInstall, reviewUpdate } from '../../client/addons.js';
import { JigClient } from '../../client/http.js';
import { EXIT_FAIL, EXIT_OK, printJson } from '../output.js';
import { approved, formatReview, runAddonVerb } from './admin-addon-review.js';

/** `update --check`: what waits, and why a collection could not be asked. */
async function check(client: JigClient, json: boolean): Promise<number> {
  const a = await checkUpdates(client);
  if (json) printJson(a);
  else {
    const lines = a.updates.map(
      (u) =>
        `${u.namespace} ${u.from} → ${u.to}${u.action === 'downgrade' ? ' (a downgrade)' : ''} from ${u.collection}` +
        (u.reach_added.length > 0 ? `; adds reach: ${u.reach_added.join('; ')}` : '') +
        (u.reach_removed.length > 0 ? `; removes reach: ${u.reach_removed.join('; ')}` : ''),
    );
    if (lines.length === 0) lines.push('no update waits');
    process.stdout.write(`${lines.join('\n')}\n`);
    for (const e of a.errors)
      process.stderr.write(`jig: collection ${e.collection} could not be read: ${e.message}\n`);
  }
  return a.updates.length > 0 ? EXIT_FAIL : EXIT_OK;
}

/** `jig admin addon install`. */
export function addonInstall(
  ref: { addon: string; collection: string },
  opts: { as?: string; yes?: boolean; json?: boolean },
): Promise<void> {
  return runAddonVerb(async () => {
    const client = new JigClient();
    const body = { ...ref, ...(opts.as ? { as: opts.as } : {}) };
    const review = await reviewInstall(client, body);
    const done = (installed: InstalledAddon | null, code: number): number => {
      if (opts.json) printJson({ review, installed });
      return code;
    };
    if (!opts.json) process.stdout.write(formatReview(review));
    if (review.problems.length > 0) {
      process.stderr.write(`jig: ${review.addon} cannot be installed here (see the problems above)\n`);
      return done(null, EXIT_FAIL);
    }
    if (!(await approved('Apply? [y/N] ', opts.yes, `${review.addon} not installed`)))
      return done(null, EXIT_FAIL);
    const installed = await installAddon(client, { ...body, review: review.review });
    if (!opts.json)
      process.stdout.write(`installed ${installed.addon} ${installed.version} as ${installed.namespace}\n`);
    return done(installed, EXIT_OK);
  });
}

/** `jig admin addon update`. */
export function addonUpdate(
  namespaces: string[],
  opts: { check?: boolean; yes?: boolean; json?: boolean },
): Promise<void> {
  return runAddonVerb(async () => {
    const client = new JigClient();
    if (opts.check) return check(client, opts.json === true);
    let todo = namespaces;
    let fetched = false;
    if (todo.length === 0) {
      const waiting = await checkUpdates(client);
      for (const e of waiting.errors)
        process.stderr.write(`jig: collection ${e.collection} could not be read: ${e.message}\n`);
      todo = waiting.updates.map((u) => u.namespace);
      fetched = true;
      if (todo.length === 0) {
        if (opts.json) printJson({ updates: [] });
        else process.stdout.write('no update waits\n');
        return waiting.errors.length > 0 ? EXIT_FAIL : EXIT_OK;
      }
    }
    const results: { review: AddonReview; updated: InstalledAddon | null }[] = [];
    let code = EXIT_OK;
    for (const ns of todo) {
      const review = await reviewUpdate(client, ns, !fetched);
      const result = { review, updated: null as InstalledAddon | null };
      results.push(result);
      if (!opts.json) process.stdout.write(`${results.length > 1 ? '\n' : ''}${formatReview(review)}`);
      if (review.action === 'none') continue;
      if (review.problems.length > 0) {
        process.stderr.write(`jig: ${ns} cannot be updated here (see the problems above)\n`);
        code = EXIT_FAIL;
        continue;
      }
      const verb = review.action === 'downgrade' ? 'downgraded' : 'updated';
      if (!(await approved(`Apply to ${ns}? [y/N] `, opts.yes, `${ns} not ${verb}`))) {
        code = EXIT_FAIL;
        continue;
      }
      result.updated = await applyUpdate(client, ns, review.review);
      if (!opts.json)
        process.stdout.write(`${verb} ${ns} ${review.from?.version ?? '?'} → ${result.updated.version}\n`);
    }
    if (opts.json) printJson({ updates: results });
    return code;
  });
}
