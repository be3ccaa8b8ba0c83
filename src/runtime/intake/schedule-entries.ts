import { createHash } from 'node:crypto';
import type { IntakeFile } from '../../contract/config/intake.js';
import type { PolicyFile } from '../../contract/config/policy.js';
import type { ScheduleSource } from '../../contract/intake-route.js';
import { parseCron, type CompiledCron, type CronError } from '../../core/cron/index.js';

/** One schedule the poller runs: an `intake.yaml` schedule or a legacy `policy.yaml` trigger. */
export interface RunningSchedule {
  /**
   * Who this entry is, across reloads and restarts: its source and fields (not its index, so
   * adding an entry above it does not make it fire again), plus which copy it is when the same
   * entry is written twice. Firings are keyed by it.
   */
  key: string;
  index: number;
  source: ScheduleSource;
  cron: string;
  compiled: CompiledCron | null;
  cronError: CronError | null;
  repo: string;
  /** When `repo` names a workspace: the members to run on (default every member). */
  members?: string[];
  /** A legacy trigger may leave the chain out; it then files like `POST /api/triggers`. */
  chain: string | undefined;
  chainTemplate: string | undefined;
  title: string;
  description: string;
  /** Items each filed item comes after. */
  after?: string[];
}

/** How an entry is named in logs and the CLI: `intake.yaml schedules.2` or `policy.yaml triggers.0`. */
export function entryName(e: Pick<RunningSchedule, 'source' | 'index'>): string {
  return e.source === 'intake' ? `intake.yaml schedules.${e.index}` : `policy.yaml triggers.${e.index}`;
}

interface Fields {
  cron: string;
  repo: string;
  members?: string[];
  chain: string | undefined;
  chainTemplate: string | undefined;
  title: string;
  description: string;
  after?: string[];
}

/**
 * The schedules that run now: `intake.yaml` ones unless intake is off (the server started on a
 * file that does not load), and every `policy.yaml` trigger either way (spec: Health, intake_off).
 */
export function runningSchedules(
  intake: IntakeFile | null,
  intakeOff: boolean,
  policy: PolicyFile | null,
): RunningSchedule[] {
  const out: RunningSchedule[] = [];
  const seen = new Map<string, number>();
  const add = (source: ScheduleSource, index: number, f: Fields): void => {
    const identity = JSON.stringify([
      source,
      f.cron,
      f.repo,
      f.chain ?? null,
      f.chainTemplate ?? null,
      f.title,
      f.description,
      // Only when set, so entries written before members existed keep their keys (and firings).
      ...(f.members ? [f.members] : []),
      ...(f.after ? [{ after: f.after }] : []),
    ]);
    const copy = seen.get(identity) ?? 0;
    seen.set(identity, copy + 1);
    const parsed = parseCron(f.cron);
    out.push({
      key: `${createHash('sha256').update(identity).digest('hex').slice(0, 32)}#${copy}`,
      index,
      source,
      compiled: parsed.ok ? parsed.cron : null,
      cronError: parsed.ok ? null : parsed.error,
      ...f,
    });
  };
  if (intake && !intakeOff) {
    intake.schedules.forEach((s, i) =>
      add('intake', i, {
        cron: s.cron,
        repo: s.repo,
        ...(s.members ? { members: s.members } : {}),
        chain: s.chain,
        chainTemplate: undefined,
        title: s.title,
        description: s.description,
        ...(s.after ? { after: s.after } : {}),
      }),
    );
  }
  policy?.triggers?.forEach((t, i) =>
    add('policy.triggers', i, {
      cron: t.cron,
      repo: t.repo,
      chain: t.chain,
      chainTemplate: t.chain_template,
      title: t.title ?? '',
      description: t.description ?? '',
    }),
  );
  return out;
}
