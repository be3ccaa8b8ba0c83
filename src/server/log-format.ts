import pretty from 'pino-pretty';

/**
 * The server's log on stderr: readable lines for a person at a terminal, JSON lines for anything
 * that reads them (a service manager, a pipe, a file). `JIG_LOG_FORMAT=json|pretty` decides
 * instead. The file log (run/logs/server.log) is always JSON.
 */
export function logStream(stderr: NodeJS.WriteStream, format: string | undefined): NodeJS.WritableStream {
  const wanted = format === 'json' || format === 'pretty' ? format : stderr.isTTY ? 'pretty' : 'json';
  if (wanted === 'json') return stderr;
  // sync: a line logged just before an exit is not lost in a buffer.
  return pretty({
    destination: stderr,
    sync: true,
    colorize: stderr.isTTY === true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname',
  });
}
