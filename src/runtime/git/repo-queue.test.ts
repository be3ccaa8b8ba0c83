import { describe, expect, it } from 'vitest';
import { inRepoQueue } from './repo-queue.js';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('inRepoQueue', () => {
  it('runs the calls of one repository one after another, of two repositories side by side', async () => {
    const log: string[] = [];
    const job = (repo: string, name: string) =>
      inRepoQueue(repo, async () => {
        log.push(`${name} start`);
        await tick();
        log.push(`${name} end`);
        return name;
      });
    const answers = await Promise.all([job('/a', 'a1'), job('/a', 'a2'), job('/b', 'b1')]);
    expect(answers).toEqual(['a1', 'a2', 'b1']);
    expect(log.indexOf('a1 end')).toBeLessThan(log.indexOf('a2 start'));
    expect(log.indexOf('b1 start')).toBeLessThan(log.indexOf('a1 end'));
  });

  it('goes on after a call that failed, and hands the failure to its caller', async () => {
    const failed = inRepoQueue('/c', async () => {
      throw new Error('git broke');
    });
    const next = inRepoQueue('/c', async () => 'ran');
    await expect(failed).rejects.toThrow('git broke');
    await expect(next).resolves.toBe('ran');
  });
});
