/**
 * POST /api/triggers throughput with no WebSocket subscriber, then with 200 live subscribers on
 * `/api/ws/events`, alternating, on one in-process server. The load (autocannon, bench/load.ts) and
 * the subscribers (bench/fanout-clients.ts) run in child processes, so the CPU per trigger is the
 * server's alone and the difference between the two runs is what the fan-out costs it. After each run with
 * subscribers every one of them must have received every event once, in order.
 * Run: npm run bench -- fanout   (BENCH_SECONDS, BENCH_ROUNDS, BENCH_SUBSCRIBERS to change the run)
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startJigWithRepo } from './jig-with-repo.js';
import { load } from './load.js';
import { record } from './figures.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 200);
const CONNECTIONS = 10;

interface Run {
  ok: number;
  seconds: number;
  cpuMs: number;
  /** The kernel's share of cpuMs: on loopback, sending includes much of the receivers' TCP work. */
  sysMs: number;
}

interface ClientsReport {
  complete: number;
  received: number;
  faults: number;
  closed: number[];
  cpuMs: number;
}

const root = mkdtempSync(join(tmpdir(), 'jig-bench-'));
try {
  const { jig, repo } = await startJigWithRepo(root);
  const post = {
    url: `${jig.url}/api/triggers`,
    method: 'POST' as const,
    body: JSON.stringify({ title: 'Bump dependencies', repo }),
  };

  const trigger = async (seconds: number): Promise<Run> => {
    const before = process.cpuUsage();
    const r = await load({ ...post, seconds });
    const cpu = process.cpuUsage(before);
    if (r.failed > 0) console.log(`  (${r.failed} failed)`);
    return { ok: r.ok, seconds, cpuMs: (cpu.user + cpu.system) / 1000, sysMs: cpu.system / 1000 };
  };

  const subscribers = async (): Promise<{
    child: ChildProcess;
    done: (seq: number) => Promise<ClientsReport>;
  }> => {
    const child = fork(fileURLToPath(new URL('./fanout-clients.ts', import.meta.url)), [], {
      execArgv: ['--import', 'tsx'],
      env: {
        ...process.env,
        FANOUT_URL: `${jig.url.replace('http', 'ws')}/api/ws/events`,
        FANOUT_CLIENTS: String(SUBSCRIBERS),
      },
    });
    const exited = once(child, 'exit');
    await Promise.race([
      once(child, 'message'),
      exited.then(() => {
        throw new Error('the subscribers exited before connecting');
      }),
    ]);
    return {
      child,
      async done(seq) {
        child.send({ expect: seq });
        const [report] = (await once(child, 'message')) as [ClientsReport];
        await exited;
        return report;
      },
    };
  };

  const line = (name: string, r: Run): void =>
    console.log(
      `${name.padEnd(34)} ${(r.ok / r.seconds).toFixed(0).padStart(6)} req/s   ${(r.cpuMs / r.ok).toFixed(2)} ms CPU/trigger (${(r.sysMs / r.ok).toFixed(2)} system)`,
    );

  console.log(`## POST /api/triggers, ${CONNECTIONS} connections, ${SECONDS} s a run, ${ROUNDS} rounds`);
  await trigger(2); // warm-up: JIT, statement cache, page cache
  const without: Run[] = [];
  const withSubs: Run[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const a = await trigger(SECONDS);
    line('0 subscribers', a);
    without.push(a);
    const subs = await subscribers();
    const b = await trigger(SECONDS);
    line(`${SUBSCRIBERS} subscribers`, b);
    withSubs.push(b);
    const report = await subs.done(jig.inst.events.lastSeq);
    console.log(
      `  subscribers: ${report.complete}/${SUBSCRIBERS} received every event, ${report.received} messages, ` +
        `${report.faults} gaps or repeats, closed: [${report.closed.join(', ')}], client CPU ${report.cpuMs.toFixed(0)} ms`,
    );
  }
  const sum = (rs: Run[]) =>
    rs.reduce(
      (t, r) => ({
        ok: t.ok + r.ok,
        seconds: t.seconds + r.seconds,
        cpuMs: t.cpuMs + r.cpuMs,
        sysMs: t.sysMs + r.sysMs,
      }),
      { ok: 0, seconds: 0, cpuMs: 0, sysMs: 0 },
    );
  const a = sum(without);
  const b = sum(withSubs);
  line('all rounds, 0 subscribers', a);
  line(`all rounds, ${SUBSCRIBERS} subscribers`, b);
  console.log(
    `ratio with/without subscribers throughput ${(b.ok / b.seconds / (a.ok / a.seconds)).toFixed(2)}x`,
  );
  record('subscribers', b.ok / b.seconds / (a.ok / a.seconds));
  await jig.close();
} finally {
  rmSync(root, { recursive: true, force: true });
}
