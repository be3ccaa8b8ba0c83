import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { configJsonSchemas } from './json-schemas.js';
import { NotifyFile } from './notify.js';

/*
 * notify.yaml is checked twice: by the server (the zod schema, refinements included) and by an
 * editor (the JSON Schema generated from it, which carries no refinement). Both must say the same
 * of every file, or an editor passes what the server then refuses.
 */

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
const editor = ajv.compile(JSON.parse(configJsonSchemas()['notify.schema.json']!) as object);

const server = (doc: unknown): boolean => NotifyFile.safeParse(doc).success;

const urls: [string, boolean][] = [
  ['https://hooks.example.com/T000/B000/XXXX', true],
  ['http://127.0.0.1:9000/hook', true],
  ['HTTPS://HOOKS.EXAMPLE.COM/x', true],
  ['https://example.com', true],
  ['https://example.com/path@with-at?x=@#@', true],
  ['https://example.com?q=1', true],
  ['ftp://example.com/hook', false],
  ['file:///etc/passwd', false],
  ['javascript:alert(1)', false],
  ['mailto:a@example.com', false],
  ['https://user:pass@example.com/hook', false],
  ['https://user@example.com/hook', false],
  ['https://', false],
  ['not a url', false],
  ['', false],
  ['https://exa mple.com/', false],
];

describe('notify.yaml: what an editor accepts is what the server accepts', () => {
  it.each(urls)('url %s (accepted: %s)', (url, ok) => {
    for (const doc of [{ url }, { base_url: url }]) {
      expect(server(doc), 'server').toBe(ok);
      expect(editor(doc), `editor: ${JSON.stringify(editor.errors)}`).toBe(ok);
    }
  });

  it.each([
    [{ format: 'telegram', chat_id: 42 }, true],
    [{ format: 'telegram', chat_id: '@channel' }, true],
    [{ format: 'telegram' }, false],
    [{ format: 'telegram', chat_id: null }, false],
    [{ format: 'telegram', chat_id: '' }, false],
    [{ format: 'discord' }, true],
    [{ format: 'discord', chat_id: null }, true],
    [{}, true],
    [{ format: 'teams' }, false],
    [{ secret: 'short' }, false],
    [{ events: ['gate_requested', 'work_item_started'] }, false],
    [{ enabled: true, url: 'https://hooks.example.com/x', chunk: 1 }, false],
  ])('%j (accepted: %s)', (doc, ok) => {
    expect(server(doc), 'server').toBe(ok);
    expect(editor(doc), `editor: ${JSON.stringify(editor.errors)}`).toBe(ok);
  });

  it('the server names the field and the rule', () => {
    const issues = (doc: unknown) =>
      NotifyFile.safeParse(doc).error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(issues({ url: 'ftp://example.com/hook' })).toEqual([['url', 'an http:// or https:// URL']]);
    expect(issues({ url: 'https://u:p@example.com/' })).toEqual([['url', 'no user or password in the URL']]);
    expect(issues({ format: 'telegram' })).toEqual([
      ['chat_id', 'format telegram needs the chat_id to write to'],
    ]);
  });
});
