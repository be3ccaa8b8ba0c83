import { describe, expect, it } from 'vitest';
import { isAuthFailure } from './agent-session.js';

describe('isAuthFailure: the error texts of the CLIs that mean "not signed in here"', () => {
  it.each([
    ['claude', 'Invalid API key · Fix external API key'],
    ['codex', 'unexpected status 401 Unauthorized: Incorrect API key provided (mock), url: <mock-url>'],
    ['gemini', 'API key not valid. Please pass a valid API key. (mock)'],
    ['amp', 'Invalid or missing API key. Run `amp login` to authenticate.'],
    [
      'auggie',
      'No auth provided. Please log in with `auggie login` or set the AUGMENT_SESSION_AUTH environment variable.',
    ],
    ['antigravity', "Error: authentication required. Run 'agy' to log in, then retry."],
  ])('%s: %s', (_cli, text) => {
    expect(isAuthFailure(text)).toBe(true);
  });

  it.each([
    'Reached maximum number of turns (1)',
    'Rate limited, retrying in 30s',
    'API Error: 500 Internal error',
    'interrupted',
  ])('not a login problem: %s', (text) => {
    expect(isAuthFailure(text)).toBe(false);
  });

  it('no message is no login problem', () => {
    expect(isAuthFailure(null)).toBe(false);
  });
});
