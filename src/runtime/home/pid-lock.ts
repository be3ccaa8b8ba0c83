import { linkSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { stamp, type Clock } from '../clock.js';
import { randomBytes } from 'node:crypto';
import { writeFileAtomic } from './atomic-write.js';
import { isSameProcess, processStartTime } from '../process/proc-info.js';

/** What `run/jig.pid` holds: which server owns this home and where it listens. */
export interface PidRecord {
  pid: number;
  start_time: string | null;
  bind: string | null;
  port: number | null;
  started_at: string;
}

export class AlreadyRunningError extends Error {
  constructor(readonly record: PidRecord) {
    const where = record.port === null ? 'still starting' : `on ${record.bind ?? '?'}:${record.port}`;
    super(`another Jig server is already running on this home: pid ${record.pid}, ${where}`);
    this.name = 'AlreadyRunningError';
  }
}

export function readPidRecord(path: string): PidRecord | null {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as PidRecord;
    return typeof parsed.pid === 'number' ? parsed : null;
  } catch {
    return null;
  }
}

/** The record of a live server on this home, or null when none runs (a stale file counts as none). */
export function liveServer(path: string): PidRecord | null {
  const rec = readPidRecord(path);
  return rec && isSameProcess(rec.pid, rec.start_time) ? rec : null;
}

/**
 * The pid file is the lock. It is created with link(2), which fails when the name exists, so two
 * servers can never both create it; a file left by a dead server (kill -9) is recognised by its
 * pid + start time and taken over. Node has no flock, and mtime-based lock libraries would call a
 * long-idle live server stale, hence this small hand-written lock.
 */
export class PidLock {
  private record: PidRecord;

  private constructor(
    readonly path: string,
    record: PidRecord,
  ) {
    this.record = record;
  }

  static acquire(path: string, clock: Clock): PidLock {
    const record: PidRecord = {
      pid: process.pid,
      start_time: processStartTime(process.pid),
      bind: null,
      port: null,
      started_at: stamp(clock),
    };
    for (let attempt = 0; attempt < 5; attempt++) {
      const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
      writeFileAtomic(tmp, JSON.stringify(record), 0o600);
      try {
        linkSync(tmp, path);
        return new PidLock(path, record);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      } finally {
        rmSync(tmp, { force: true });
      }
      const holder = readPidRecord(path);
      if (holder && isSameProcess(holder.pid, holder.start_time)) throw new AlreadyRunningError(holder);
      // Stale: move it aside (atomic), then check we moved the file we judged, not a fresh lock.
      const aside = `${path}.stale.${randomBytes(4).toString('hex')}`;
      try {
        renameSync(path, aside);
      } catch {
        continue;
      }
      const moved = readPidRecord(aside);
      if (moved && isSameProcess(moved.pid, moved.start_time)) {
        try {
          linkSync(aside, path);
        } catch {
          // The winner's lock is already back or replaced; either way it is not ours to take.
        }
        rmSync(aside, { force: true });
        throw new AlreadyRunningError(moved);
      }
      rmSync(aside, { force: true });
    }
    throw new Error(`could not take the lock ${path}`);
  }

  /** Records where the server listens, once it does. */
  update(fields: Pick<PidRecord, 'bind' | 'port'>): void {
    this.record = { ...this.record, ...fields };
    const current = readPidRecord(this.path);
    if (current && current.pid !== this.record.pid) return;
    writeFileAtomic(this.path, JSON.stringify(this.record), 0o600);
  }

  release(): void {
    const current = readPidRecord(this.path);
    if (current && current.pid === this.record.pid && current.start_time === this.record.start_time) {
      rmSync(this.path, { force: true });
    }
  }
}
