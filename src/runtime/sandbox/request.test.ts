import { describe, expect, it } from 'vitest';
import { allowedHosts } from './request.js';

describe('the hosts a proxied jail lets through', () => {
  const n = {
    allow: ['registry.npmjs.org', 'api.anthropic.com'],
    credentials: [
      { env: 'ANTHROPIC_API_KEY', hosts: ['api.anthropic.com'], header: 'x-api-key' },
      { env: 'OPENAI_API_KEY', hosts: ['api.openai.com'], header: 'authorization', format: 'Bearer {value}' },
    ],
  };

  it('are its allow list and the hosts of each credential whose secret the task has, once each', () => {
    expect(allowedHosts(n, { ANTHROPIC_API_KEY: 'k', OPENAI_API_KEY: 'o' })).toEqual([
      'registry.npmjs.org',
      'api.anthropic.com',
      'api.openai.com',
    ]);
  });

  it('leave out the hosts of a credential whose variable is unset or empty', () => {
    expect(allowedHosts(n, { OPENAI_API_KEY: '' })).toEqual(['registry.npmjs.org', 'api.anthropic.com']);
    expect(allowedHosts({ allow: [], credentials: n.credentials }, {})).toEqual([]);
  });
});
