import { join } from 'node:path';
import { Document, isMap, parseDocument, YAMLMap } from 'yaml';
import { NotifyFile } from '../../contract/config/notify.js';
import { JigError } from '../../contract/errors.js';
import type { NotifyAnswer, NotifyPutBody } from '../../contract/notify-route.js';
import { writeFileAtomic } from '../home/atomic-write.js';
import { readConfigText } from '../config/config-dir.js';
import { assign } from '../config/yaml-edit.js';

const FILE = 'notify.yaml';
const DEFAULTS = NotifyFile.parse({});

export type NotifyLoad = { file: NotifyFile; problem: string | null };

/** The first problem of a parse, as `field: message`. */
function firstProblem(err: { issues: { path: PropertyKey[]; message: string }[] }): {
  field: string;
  message: string;
} {
  const i = err.issues[0];
  return { field: i?.path.map(String).join('.') || FILE, message: i?.message ?? 'invalid' };
}

/** notify.yaml's text as the model; a missing file is the defaults (off), one that does not load too. */
export function parseNotify(text: string | null): NotifyLoad {
  if (text === null) return { file: DEFAULTS, problem: null };
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0) return { file: DEFAULTS, problem: `${FILE}: ${doc.errors[0]?.message ?? ''}` };
  const parsed = NotifyFile.safeParse(doc.toJS() ?? {});
  if (parsed.success) return { file: parsed.data, problem: null };
  const p = firstProblem(parsed.error);
  return { file: DEFAULTS, problem: `${FILE}: ${p.field}: ${p.message}` };
}

/**
 * `GET`/`PUT /api/notify`: notify.yaml as a settings form. The URL and the secret are never shown
 * back (a Slack or Telegram URL carries its own token), only whether they are set. A save merges
 * the body over the file key by key, comments kept, checks the result, and writes it atomically,
 * readable by its owner only.
 */
export class NotifySettings {
  private current: NotifyLoad;

  constructor(private readonly configDir: string) {
    this.current = this.read();
  }

  private read(): NotifyLoad {
    return parseNotify(readConfigText(this.configDir, FILE));
  }

  /** Rereads the file (`admin reload`, a save). */
  reload(): NotifyLoad {
    this.current = this.read();
    return this.current;
  }

  get file(): NotifyFile {
    return this.current.file;
  }

  get problem(): string | null {
    return this.current.problem;
  }

  view(): NotifyAnswer {
    const f = this.current.file;
    return {
      enabled: f.enabled,
      url_set: f.url !== null,
      secret_set: f.secret !== null,
      format: f.format,
      chat_id: f.chat_id,
      base_url: f.base_url,
      events: f.events,
      problem: this.current.problem,
    };
  }

  save(body: NotifyPutBody): NotifyAnswer {
    const text = readConfigText(this.configDir, FILE);
    const doc = text === null ? new Document({}) : parseDocument(text, { uniqueKeys: true });
    if (doc.errors.length > 0 || (doc.contents !== null && !isMap(doc.contents)))
      throw new JigError('notify_invalid', {
        reason: `the file on disk is not a YAML mapping (${doc.errors[0]?.message ?? 'not a mapping'}); fix it by hand first`,
      });
    if (doc.contents === null) doc.contents = new YAMLMap();
    const map = doc.contents as YAMLMap;
    for (const [key, value] of Object.entries(body)) if (value !== undefined) assign(doc, map, key, value);
    const next = NotifyFile.safeParse(doc.toJS() ?? {});
    if (!next.success) {
      const p = firstProblem(next.error);
      throw new JigError(
        'notify_invalid',
        { reason: `${p.field}: ${p.message}` },
        { issues: [{ field: `body.${p.field}`, message: p.message }] },
      );
    }
    writeFileAtomic(join(this.configDir, FILE), doc.toString(), 0o600);
    this.reload();
    return this.view();
  }
}
