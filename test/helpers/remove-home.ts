import { readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';

/*
 * A task process outlives the Jig server that started it (sessions survive restarts, and a test
 * kills its server with SIGKILL), and so does a CLI's own state writer. One still writing into a
 * home (a session log under run/, Codex's session files) made a plain recursive remove fail with
 * ENOTEMPTY. So a home is removed once nothing runs in it.
 */

/** The live pids (not zombies) whose HOME or JIG_HOME is `dir`, or whose working directory lies under it. */
export function processesOf(dir: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      if (/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))) continue;
      const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      const mine = env.includes(`HOME=${dir}`) || env.includes(`JIG_HOME=${dir}`);
      if (mine || cwd === dir || cwd.startsWith(`${dir}/`)) found.push(pid);
    } catch {
      // Gone between the listing and the read, or not ours to read.
    }
  }
  return found;
}

export const describePid = (pid: number): string => {
  try {
    return `${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').slice(0, 200)}`;
  } catch {
    return String(pid);
  }
};

/** Ends what still runs in `dir` (bounded: 50 rounds 100 ms apart), then removes it. */
export async function removeHome(dir: string, opts: { warn?: boolean } = {}): Promise<void> {
  for (let round = 0; round < 50; round++) {
    const pids = processesOf(dir);
    if (pids.length === 0) break;
    if (round === 0 && opts.warn)
      console.warn(`still running with ${dir}: ${pids.map(describePid).join('; ')}`);
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  rmSync(dir, { recursive: true, force: true });
}
