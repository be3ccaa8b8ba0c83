/** How long a stop may take before the process exits anyway. */
const STOP_DEADLINE_MS = 10_000;

/** Runs the server in this process until a signal stops it (`jig serve`, `jig admin start`, bare `jig`). */
export async function serveForeground(opts: {
  host?: string;
  port?: number;
  worker?: boolean;
  name?: string;
  /** commander's `--no-work`: false when given. */
  work?: boolean;
  slots?: number;
  silence?: number;
  repoMap?: string[];
  advertise?: string;
  demo?: boolean;
}): Promise<void> {
  // A demo runs on a throwaway home, never the user's (JIG_HOME is read when the server starts).
  const demo = opts.demo ? (await import('./demo.js')).prepareDemoHome() : null;
  if (demo) process.env.JIG_HOME = demo.home;
  // `jig serve` is the one verb that runs the server itself (DESIGN.md: cli -> server/main.ts only).
  const { startServer } = await import('../../server/main.js');
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let pending: { signal: string; code: number } | null = null;
  const stop = (signal: string, exitCode = 0): void => {
    // A signal that arrives while the server is still starting is acted on once it is up.
    if (!server) {
      pending ??= { signal, code: exitCode };
      return;
    }
    const running = server;
    running.inst.log.info({ signal }, 'stopping: no new requests; finishing the ones in flight');
    setTimeout(() => {
      process.stderr.write(`jig: did not stop within ${STOP_DEADLINE_MS / 1000}s; exiting\n`);
      process.exit(1);
    }, STOP_DEADLINE_MS).unref();
    // A demo's items are paused first: a clean stop leaves running commands for the next start to
    // adopt, and nothing will start this throwaway home again.
    const before = demo ? import('./demo.js').then((d) => d.pauseDemo(running.url)) : Promise.resolve();
    before
      .catch(() => undefined)
      .then(() => running.close())
      .then(
        () => process.exit(exitCode),
        (err: unknown) => {
          process.stderr.write(`jig: error while stopping: ${(err as Error).message}\n`);
          process.exit(1);
        },
      );
  };
  // Installed before anything else, so no signal finds the default handler (which would kill
  // the process without closing the store or releasing the pid file).
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  try {
    server = await startServer({
      host: opts.host,
      // A free port unless one is asked for: a demo must not take the real Jig's 8765.
      port: opts.port ?? (demo ? 0 : undefined),
      ...(opts.worker ? { worker: true } : {}),
      ...(opts.name !== undefined ? { name: opts.name } : {}),
      ...(opts.work === false ? { noWork: true } : {}),
      ...(opts.slots !== undefined ? { slots: opts.slots } : {}),
      ...(opts.silence !== undefined ? { silence: opts.silence } : {}),
      ...(opts.repoMap ? { repoMap: opts.repoMap } : {}),
      ...(opts.advertise !== undefined ? { advertise: opts.advertise } : {}),
      logToStderr: true,
      // POST /api/apply/restart: a clean stop, then a non-zero exit the service manager restarts on.
      onRestart: (code) => stop('restart', code),
    });
  } catch (err) {
    process.stderr.write(`jig: ${(err as Error).message}\n`);
    process.exit(1);
  }
  process.stdout.write(
    server.inst.role === 'worker'
      ? `jig worker ${server.inst.engine.workerName} claiming work (pid ${process.pid}, home ${server.inst.paths.home}, tasks' API on ${server.url})\n`
      : `jig listening on ${server.url} (pid ${process.pid}, home ${server.inst.paths.home})\n`,
  );
  if (server.exposure.offLoopback) {
    process.stdout.write(`jig: bound to ${server.inst.bind}: other machines can reach this port\n`);
    for (const w of server.exposure.warnings) process.stderr.write(`jig: warning: ${w}\n`);
  }
  if (demo) {
    try {
      const lines = await (await import('./demo.js')).seedDemo(server.url, demo.repo);
      process.stdout.write(
        `jig demo: a throwaway home at ${demo.home} with a sample repository and these items:\n` +
          lines.map((l) => `  ${l}\n`).join('') +
          `open ${server.url} to look around; delete the home when done (rm -rf ${demo.home})\n`,
      );
    } catch (err) {
      process.stderr.write(`jig: the demo could not file its items: ${(err as Error).message}\n`);
    }
  }
  if (pending) {
    const p: { signal: string; code: number } = pending;
    stop(p.signal, p.code);
  }
  watchParent(() => stop('parent gone'));
}

/**
 * A server started for another process (a chain test's own server, ADR 0041) is told that
 * process's pid in JIG_EXIT_WITH_PARENT and stops once it is gone: a parent killed mid-test would
 * otherwise leave a server and its agents running with nobody to end them.
 */
function watchParent(onGone: () => void): void {
  const pid = Number(process.env.JIG_EXIT_WITH_PARENT);
  if (!Number.isInteger(pid) || pid <= 1) return;
  // process.ppid is read afresh each time: once the parent dies we are re-parented (to init or
  // a subreaper), and a pid the system re-uses for another process does not fool this test.
  const timer = setInterval(() => {
    if (process.ppid === pid) return;
    clearInterval(timer);
    onGone();
  }, PARENT_POLL_MS);
  timer.unref();
}

const PARENT_POLL_MS = 500;
