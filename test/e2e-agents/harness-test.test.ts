import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupAll, http, startJig, type JigProcess } from '../helpers/server.js';
import { cli, PINNED, type CliId } from './clis.js';

/*
 * `POST /api/harnesses/{id}/test` (`jig admin harnesses test ID`) with every pinned real CLI: the
 * CLI runs once against Jig's mock model server as its provider file's `mock:` block says, writes
 * a file with its shell tool and answers; Jig reads its stream with the provider's own rules. A CLI
 * whose install failed is skipped with the reason, never passed.
 */

const found = Object.fromEntries((Object.keys(PINNED) as CliId[]).map((id) => [id, cli(id)]));
const bins = Object.values(found).flatMap((f) => (f.bin ? [dirname(f.bin)] : []));

let jig: JigProcess;
beforeAll(async () => {
  jig = await startJig({ env: { PATH: [...bins, process.env.PATH ?? ''].join(':') } });
}, 60_000);
afterAll(cleanupAll);

const test = (id: string, body: Record<string, unknown> = {}) =>
  http(`${jig.url}/api/harnesses/${id}/test`, { method: 'POST', body: { timeout_s: 180, ...body } });

/** What each CLI's stream gives beyond the common readout (the model it names, a cost). */
const EXPECT: Record<CliId, { model: string | null; problems?: string[] }> = {
  claude: { model: 'claude-sonnet-5' },
  codex: { model: null },
  gemini: { model: 'gemini-2.5-pro' },
  qwen: { model: 'mock-model' },
  opencode: { model: null },
  kilo: { model: null },
  droid: { model: 'custom:Mock-Model-0' },
  // 1.0.102 prints no token counts on stdout (only in --usage-output-file): named, not hidden.
  copilot: { model: 'mock-model', problems: ['no tokens and no cost read: its runs would be unpriced'] },
};

describe('jig admin harnesses test against each real CLI', () => {
  for (const id of Object.keys(PINNED) as CliId[]) {
    const f = found[id];
    it.skipIf(f?.skip !== undefined)(
      `${id}: runs offline against the mock, its shell command runs, and Jig reads what a task needs${f?.skip ? ` — skipped: ${f.skip}` : ''}`,
      async () => {
        const r = await test(id);
        expect(r.status, r.text).toBe(200);
        const want = EXPECT[id];
        const problems = want.problems ?? [];
        expect(r.json, r.text).toMatchObject({
          harness: id,
          provider: id,
          ok: problems.length === 0,
          exit_code: 0,
          timed_out: false,
          tool_ran: true,
          problems,
          folder: null,
        });
        expect(r.json.mock.model_calls).toBe(2);
        expect(r.json.readout).toMatchObject({
          is_error: false,
          final_text: expect.stringContaining('Done: the file is written.'),
          session_id: expect.any(String),
          model: want.model,
        });
        if (problems.length === 0) {
          // The mock answers 100 input + 20 output tokens per call: two calls.
          const t = r.json.readout.tokens;
          expect(t.input + t.cache_read).toBe(200);
          expect(t.output).toBe(40);
        }
      },
      240_000,
    );
  }

  it('refuses a harness whose provider declares no mock, and one that does not exist, in words', async () => {
    const cursor = await test('cursor');
    expect(cursor.status).toBe(409);
    expect(cursor.json).toEqual({
      code: 'harness_not_testable',
      detail:
        'harness cursor cannot be tested: provider `cursor` declares no `mock:` (how to point the CLI at a model on loopback); docs/harnesses.md says how',
    });
    const none = await test('nope');
    expect(none.status).toBe(404);
    expect(none.json).toEqual({ code: 'not_found', detail: 'harness nope not found' });
    const bad = await test('claude', { timeout_s: 1 });
    expect(bad.status).toBe(422);
    expect(bad.json.detail).toMatch(/^body\.timeout_s: /);
  });
});
