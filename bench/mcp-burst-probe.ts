/**
 * The probe of bench/mcp-burst.ts, in a process of its own so that the burst's client does not
 * delay it: GETs `PROBE_URL` on a fresh connection every 20 ms until it is sent a message, then
 * sends back every latency it measured (ms).
 */
import { request } from 'node:http';

const url = new URL(process.env.PROBE_URL ?? '');
let stop = false;
process.on('message', () => (stop = true));

function once(): Promise<number> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(performance.now() - t0));
    });
    req.on('error', () => resolve(Number.POSITIVE_INFINITY));
    req.end();
  });
}

const latencies: number[] = [];
process.send?.('ready');
while (!stop) {
  latencies.push(await once());
  await new Promise((r) => setTimeout(r, 20));
}
process.send?.(latencies, () => process.exit(0));
