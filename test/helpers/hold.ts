import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/*
 * A task that holds until the test lets it go: a shell loop that looks for a file. Five looks a
 * second, not twenty: each look forks a `sleep`, and fifty held items looking twenty times a second
 * cost the run more CPU than the work the tests watch (13 000 `sleep` processes in one suite run).
 * Letting go is a file the test writes; the task sees it within a fifth of a second.
 */

/** A POSIX shell loop that returns once `path` exists (`path` as the shell reads it: quote it). */
export const holdUntil = (path: string): string => `while [ ! -e ${path} ]; do sleep 0.2; done`;

/**
 * A hold for many tasks at once that forks nothing while it holds: each task opens a FIFO for
 * reading, which blocks in the kernel until a writer has it open, unless the release marker is
 * already there. Letting go writes the marker, then opens the FIFO for reading and writing (which
 * never blocks on Linux) and keeps it open until the test ends: every task blocked in its open
 * goes on, and so does one that looked for the marker just before it was written. Fifty items held
 * by `holdUntil` forked 250 `sleep`s a second for as long as the test took to look at them.
 */
export function fifoHold(): { script: string; release: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'jig-hold-'));
  const gate = join(dir, 'gate');
  const released = join(dir, 'released');
  const made = spawnSync('mkfifo', [gate]);
  if (made.status !== 0) throw new Error(`mkfifo ${gate}: ${made.stderr.toString()}`);
  let fd: number | null = null;
  onTestFinished(() => {
    if (fd !== null) closeSync(fd);
    fd = null;
  });
  return {
    script: `[ -e "${released}" ] || : < "${gate}"`,
    release: () => {
      writeFileSync(released, '');
      fd ??= openSync(gate, 'r+');
    },
  };
}
