import type { IntakeAnswer } from '../../contract/intake-route.js';
import { JigClient } from '../../client/http.js';
import { getIntake } from '../../client/intake.js';
import { EXIT_OK, printJson, runVerb } from '../output.js';

/** The answer as lines for a person: settings, then one block per schedule. */
export function formatSchedules(a: IntakeAnswer): string {
  const lines = [
    `auto-intake ${a.enabled ? 'on' : 'off'} · every ${a.interval_s} s · priority ≤ ${a.priority_ceiling} · repos: ${a.repos.length > 0 ? a.repos.join(', ') : 'every enabled repo'}`,
  ];
  if (a.intake_off)
    lines.push('intake.yaml schedules are off: the server started on an intake.yaml that does not load');
  if (a.invalid_intake) lines.push(`intake.yaml: ${a.invalid_intake}`);
  if (a.schedules.length === 0) lines.push('no schedules');
  for (const s of a.schedules) {
    const where = s.source === 'intake' ? `schedules.${s.index}` : `policy.yaml triggers.${s.index}`;
    const next = s.next_fire_at ?? (s.problems.length > 0 ? 'skipped' : 'never');
    lines.push(`${where}  ${s.cron}  next ${next}`);
    lines.push(
      `    ${s.title.split('\n')[0] || '(no title)'} · ${s.chain ?? '(repo default chain)'} · ${s.repo}`,
    );
    for (const p of s.problems) lines.push(`    ! ${p.field}: ${p.message}`);
  }
  return `${lines.join('\n')}\n`;
}

/** `jig admin schedules`. */
export function adminSchedules(opts: { json?: boolean }): Promise<void> {
  return runVerb(async () => {
    const a = await getIntake(new JigClient());
    if (opts.json) printJson(a);
    else process.stdout.write(formatSchedules(a));
    return EXIT_OK;
  });
}
