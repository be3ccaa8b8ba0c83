import { afterEach, describe, expect, it } from 'vitest';
import { engineSetup, fileItem, until } from './helpers/engine.js';
import { cleanupAll, http, runJig } from './helpers/server.js';

afterEach(cleanupAll);

describe('sessions and their logs', () => {
  it('lists an item’s sessions and reads a session’s output, whole or its tail', async () => {
    const { jig, repo, home } = await engineSetup({
      talk: `
nodes:
  - id: talk
    kind: exec
    tasks:
      - id: say
        kind: subprocess
        run: 'echo "hello from $JIG_WORK_ITEM_ID"; echo oops >&2; exit 3'
`,
    });
    const item = await fileItem(jig, repo, 'talk');
    const stopped = await until(jig, item.id, (i) => i.status === 'stopped');
    expect(stopped.stop.kind).toBe('failed');
    const list = await http(`${jig.url}/api/work-items/${item.id}/sessions`);
    expect(list.status).toBe(200);
    expect(list.json.sessions).toHaveLength(1);
    const s = list.json.sessions[0];
    expect(s).toMatchObject({
      node: 'talk',
      task_path: 'talk.main.say',
      kind: 'subprocess',
      status: 'failed',
      exit_code: 3,
    });
    const text = `hello from ${item.id}\noops\n`;
    expect(s.log_bytes).toBe(text.length);
    const log = await http(`${jig.url}/api/work-items/${item.id}/sessions/${s.id}/log`);
    expect(log.status).toBe(200);
    expect(log.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(log.text).toBe(text);
    const tail = await http(`${jig.url}/api/work-items/${item.id}/sessions/${s.id}/log?tail=5`);
    expect(tail.text).toBe('oops\n');
    expect(tail.headers.get('x-log-offset')).toBe(String(text.length - 5));
    // A session is read only through its own item.
    const other = await fileItem(jig, repo, 'talk', false);
    expect((await http(`${jig.url}/api/work-items/${other.id}/sessions/${s.id}/log`)).status).toBe(404);
    const cli = await runJig(['view', 'logs', item.id], { JIG_HOME: home });
    expect(cli).toMatchObject({ code: 0, stdout: text });
    const none = await runJig(['view', 'logs', other.id], { JIG_HOME: home });
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(`jig: item ${other.id} has run no task yet\n`);
  });
});
