import { EXIT_FAIL, EXIT_OK, printJson, runVerb } from '../output.js';
import { outputStyle, table, type Colour } from '../table.js';
import { doctorRows, type RowStatus } from './admin-doctor-checks.js';

const colours: Record<RowStatus, Colour> = { pass: 'green', warn: 'yellow', fail: 'red' };

/** `jig admin doctor`. */
export function adminDoctor(opts: { json?: boolean }): Promise<void> {
  return runVerb(async () => {
    const rows = await doctorRows();
    if (opts.json) printJson(rows);
    else {
      const style = outputStyle();
      process.stdout.write(
        table(
          style,
          ['STATUS', 'CHECK', 'DETAIL'],
          rows.map((r) => [{ text: r.status, colour: colours[r.status] }, r.check, r.detail]),
        ),
      );
      const fixes = rows.filter((r) => r.status !== 'pass' && r.fix);
      if (fixes.length > 0)
        process.stdout.write(`\nto fix:\n${fixes.map((r) => `  ${r.check}: ${r.fix}`).join('\n')}\n`);
    }
    return rows.some((r) => r.status === 'fail') ? EXIT_FAIL : EXIT_OK;
  });
}
