export const stopped = (i: any) => i.status === 'stopped';
export const completed = (i: any) => i.status === 'completed';
export const ofType = (ev: any[], type: string) => ev.filter((e) => e.type === type);
export const sessionsOf = (ev: any[], task: string) =>
  ev.filter((e) => e.type === 'worker_session_started' && e.payload.task === task);

/** A node whose test passes once `fixed.txt` exists in the worktree. */
export const verify = (loop: string, extra = '') => `
nodes:
  - id: verify
    kind: exec
    tasks:
      - id: test
        kind: subprocess
        run: test -f fixed.txt
${loop}${extra}`;
