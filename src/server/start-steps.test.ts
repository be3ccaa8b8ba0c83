import { describe, expect, it } from 'vitest';
import { AccessFile } from '../contract/config/access.js';
import { resolveHomePaths } from '../runtime/home/paths.js';
import { settle } from './start-steps.js';

const paths = resolveHomePaths({ JIG_HOME: '/tmp/jig-settle-test' });
const access = AccessFile.parse({});
const shared = { JIG_DATABASE_URL: 'postgres://u@127.0.0.1/db' };

describe('settle: who this process is among those sharing a store', () => {
  it('a silence of 60 s unless --silence or JIG_WORKER_SILENCE says otherwise, the flag first', () => {
    expect(settle({}, shared, paths, access).identity.silenceMs).toBe(60_000);
    expect(settle({}, { ...shared, JIG_WORKER_SILENCE: '15' }, paths, access).identity.silenceMs).toBe(
      15_000,
    );
    expect(
      settle({ silence: 30 }, { ...shared, JIG_WORKER_SILENCE: '15' }, paths, access).identity.silenceMs,
    ).toBe(30_000);
    expect(settle({}, { ...shared, JIG_WORKER_SILENCE: ' ' }, paths, access).identity.silenceMs).toBe(60_000);
  });

  it('refuses a JIG_WORKER_SILENCE that is not whole seconds from 5 to 3600, naming it', () => {
    for (const bad of ['4', '3601', '7.5', 'ten'])
      expect(() => settle({}, { ...shared, JIG_WORKER_SILENCE: bad }, paths, access)).toThrow(
        `JIG_WORKER_SILENCE must be whole seconds from 5 to 3600 (got ${bad})`,
      );
  });
});
