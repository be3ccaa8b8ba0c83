import type { Command } from 'commander';
import { later } from '../lazy.js';

export function registerChain(program: Command): void {
  const chain = program.command('chain').description('work on chains: test one before it spends');
  chain
    .command('test')
    .argument('<chain>', 'chain id')
    .description(
      'walk the chain with the real engine in a throwaway home, agents answered and gates decided by a script (docs/chain-tests.md); exits 1 when the run or an expectation fails',
    )
    .option(
      '--script <file>',
      'the script (YAML or JSON): tasks, default, commands, gates, expect, timeout_s',
    )
    .option(
      '--replay <recording>',
      'answer agents and gates from a recording (`jig item record`): its name, or a recording file; reports where the chain goes another way',
    )
    .option('--repo <path>', 'the connected repository to clone for the run (default: the only one)')
    .option(
      '--draft',
      "test the chain's open draft (the editor's unpublished changes) instead of its published text",
    )
    .option('--json', 'print the report as JSON')
    .action(later(() => import('./chain-test-actions.js'), 'chainTest'));
}
