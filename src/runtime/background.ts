import type { Logger } from 'pino';

/**
 * Starts work nobody waits for. Its failure is logged with what it was; it never becomes an
 * unhandled rejection, which ends a Node 20 process (and with it every running item's server).
 */
export function background(
  log: Pick<Logger, 'error'>,
  what: string,
  work: () => Promise<unknown>,
  context: Record<string, unknown> = {},
): void {
  const report = (err: unknown): void => log.error({ err, ...context }, `${what} failed`);
  try {
    work().catch(report);
  } catch (err) {
    report(err);
  }
}
