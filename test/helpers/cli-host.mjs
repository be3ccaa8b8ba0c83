// The CLI host: one long-lived process that runs `jig` command lines one after another, so a test
// file pays for Node's start and the CLI's modules once instead of once per command (issue 42: some
// 530 CLI processes, about 0.2 s of CPU each). test/helpers/cli-runner.ts starts it and sends it
// runs; docs/testing.md says what it keeps of a real process and what it does not.
//
// A run gets a process as `bin/jig.js` would: its own environment and argv, an empty exit code,
// stdin with the run's input (or none), and this process's own fd 1 and 2, pipes the runner reads,
// so what the CLI writes and what a child it starts with inherited stdio writes both arrive. At the
// end of a run a marker goes down both pipes (writes to a pipe are synchronous on Linux, so the
// marker comes after everything the run wrote), then the exit code over IPC.
import { Readable } from 'node:stream';

const { runCli } = await import(new URL('../../dist/cli/run.js', import.meta.url).href);

class Exit {
  constructor(code) {
    this.code = code;
  }
}

/** The run under way: its uncaught errors and a process.exit() outside its promise end it. */
let current = null;

process.exit = (code) => {
  throw new Exit(code ?? process.exitCode ?? 0);
};
const failed = (err) => {
  if (err instanceof Exit) {
    current?.end(err.code);
    return;
  }
  // What Node prints for an error nobody caught, and its exit code.
  process.stderr.write(`${err?.stack ?? String(err)}\n`);
  current?.end(1);
};
process.on('uncaughtException', failed);
process.on('unhandledRejection', failed);
// The runner's process ended: nothing more will come.
process.on('disconnect', () => process.reallyExit(0));

let stdin = Readable.from([]);
Object.defineProperty(process, 'stdin', { configurable: true, enumerable: true, get: () => stdin });

process.on('message', (m) => {
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, m.env);
  process.argv = [process.execPath, m.bin, ...m.args];
  process.chdir(m.cwd);
  process.exitCode = undefined;
  stdin = new Readable({ read() {} });
  if (m.input !== null) stdin.push(Buffer.from(m.input));
  stdin.push(null);
  let ended = false;
  current = {
    end(code) {
      if (ended) return;
      ended = true;
      current = null;
      const marker = `\u0000jig-cli-host-end:${m.id}\u0000`;
      process.stdout.write(marker);
      process.stderr.write(marker);
      process.send({ id: m.id, code });
    },
  };
  const run = current;
  runCli(process.argv).then(
    // Node exits once nothing is left to do; what a verb left running after its promise settled
    // (a write's callback, a child's exit) gets the next turns of the loop before the run ends.
    () => setImmediate(() => setImmediate(() => run.end(process.exitCode ?? 0))),
    failed,
  );
});
process.send({ ready: true });
