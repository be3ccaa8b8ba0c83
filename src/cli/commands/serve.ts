import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { later } from '../lazy.js';

export function portArg(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError('a port is a number from 0 to 65535');
  return n;
}

function slotsArg(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 1000)
    throw new InvalidArgumentError('slots is a number from 1 to 1000');
  return n;
}

function silenceArg(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 5 || n > 3600)
    throw new InvalidArgumentError('silence is whole seconds from 5 to 3600');
  return n;
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run the Jig server: board and API on one port (default 127.0.0.1:8765)')
    .option('--host <addr>', 'address to bind (else JIG_HOST, then access.yaml bind, then 127.0.0.1)')
    .option('--port <n>', 'port to listen on (else JIG_PORT, then access.yaml port, then 8765)', portArg)
    .option(
      '--worker',
      'claim and walk items from a shared PostgreSQL store (JIG_DATABASE_URL): no board, no schedules; see docs/scale-out.md',
    )
    .option(
      '--name <name>',
      'this process among those sharing the store (else JIG_WORKER_NAME, else host:pid)',
    )
    .option('--no-work', 'serve the API and board only; workers walk the items (PostgreSQL store)')
    .option(
      '--repo-map <from=to>',
      'a repo the server has at FROM is checked out at TO here (repeatable; else JIG_REPO_MAP)',
      (v: string, all: string[] = []) => [...all, v],
    )
    .option('--slots <n>', 'the most items this process walks at once (max_concurrent still holds)', slotsArg)
    .option(
      '--silence <seconds>',
      'how long a process sharing the store may be silent before its items move (else JIG_WORKER_SILENCE, else 60); the same on every process',
      silenceArg,
    )
    .option(
      '--advertise <url>',
      'where the other processes sharing the store reach this one (else JIG_ADVERTISE_URL, else its own address)',
    )
    .option(
      '--demo',
      'serve a throwaway home (in the temp folder) with a sample repository and items in every state; on a free port unless --port',
    )
    .action(later(() => import('./serve-actions.js'), 'serveForeground'));
}
