import { createRequire } from 'node:module';
import type PinoPretty from 'pino-pretty';

/*
 * pino-pretty (and the colour and date code under it) is loaded only when a person reads the log:
 * a server under a service manager, a pipe or a test writes JSON and never needs it, and loading it
 * took about a tenth of a start's CPU (issue 43). Loaded with require() so that the choice stays
 * synchronous: the logger is made before anything else of the server.
 */
const load = createRequire(import.meta.url);

/** pino-pretty's module is its factory (a function, with itself as `default` too). */
const isPretty = (m: unknown): m is typeof PinoPretty => typeof m === 'function';

/**
 * The server's log on stderr: readable lines for a person at a terminal, JSON lines for anything
 * that reads them (a service manager, a pipe, a file). `JIG_LOG_FORMAT=json|pretty` decides
 * instead. The file log (run/logs/server.log) is always JSON.
 */
export function logStream(stderr: NodeJS.WriteStream, format: string | undefined): NodeJS.WritableStream {
  const wanted = format === 'json' || format === 'pretty' ? format : stderr.isTTY ? 'pretty' : 'json';
  if (wanted === 'json') return stderr;
  const pretty: unknown = load('pino-pretty');
  if (!isPretty(pretty)) throw new Error('pino-pretty did not load as a function');
  // sync: a line logged just before an exit is not lost in a buffer.
  return pretty({
    destination: stderr,
    sync: true,
    colorize: stderr.isTTY === true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname',
  });
}
