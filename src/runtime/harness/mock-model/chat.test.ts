import { afterEach, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer } from './server.js';

let mock: MockModelServer | null = null;
afterEach(async () => {
  await mock?.close();
  mock = null;
});

const tools = [{ type: 'function', function: { name: 'bash', parameters: { type: 'object' } } }];

async function post(body: unknown, path = '/v1/chat/completions'): Promise<Response> {
  if (!mock) throw new Error('no mock');
  return fetch(`${mock.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer mock' },
    body: JSON.stringify(body),
  });
}

function events(text: string): unknown[] {
  return text
    .split('\n\n')
    .filter((b) => b.startsWith('data: ') && b !== 'data: [DONE]')
    .map((b) => JSON.parse(b.slice(6)) as unknown);
}

describe('the mock model server speaks Chat Completions', () => {
  it('streams a shell call in the tool the request offers, then text, with usage and [DONE]', async () => {
    mock = await startMockModelServer([{ bash: 'echo hi', say: 'Running.' }, { say: 'All done.' }]);
    const first = await post({ model: 'm1', stream: true, tools, messages: [] });
    expect(first.status).toBe(200);
    const text = await first.text();
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    const chunks = events(text);
    expect(chunks).toContainEqual(
      expect.objectContaining({
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [
                {
                  index: 0,
                  id: expect.any(String),
                  type: 'function',
                  function: {
                    name: 'bash',
                    arguments: JSON.stringify({
                      command: 'echo hi',
                      description: 'run the requested command',
                    }),
                  },
                },
              ],
            },
            finish_reason: null,
          },
        ],
      }),
    );
    expect(chunks.at(-1)).toMatchObject({
      choices: [{ delta: {}, finish_reason: 'tool_calls' }],
      usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
    });
    const second = await post({ model: 'm1', tools, messages: [] }, '/chat/completions');
    expect(await second.json()).toMatchObject({
      object: 'chat.completion',
      model: 'm1',
      choices: [{ message: { role: 'assistant', content: 'All done.' }, finish_reason: 'stop' }],
    });
    expect(mock.main().map((r) => [r.api, r.tools])).toEqual([
      ['chat', ['bash']],
      ['chat', ['bash']],
    ]);
  });

  it('sends usage in its own chunk when the client asks for it, and 401 as OpenAI does', async () => {
    mock = await startMockModelServer([{ say: 'x' }, { status: 401 }]);
    const r = await post({ stream: true, stream_options: { include_usage: true }, tools, messages: [] });
    const chunks = events(await r.text());
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { completion_tokens: 20 } });
    expect(chunks.at(-2)).toMatchObject({ choices: [{ finish_reason: 'stop' }] });
    const denied = await post({ stream: true, tools, messages: [] });
    expect(denied.status).toBe(401);
    expect(await denied.json()).toEqual({
      error: {
        message: 'Incorrect API key provided',
        type: 'invalid_request_error',
        code: 'invalid_api_key',
      },
    });
  });
});
