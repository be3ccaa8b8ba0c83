import { NotifyFile } from '../../contract/config/notify.js';
import { JigError } from '../../contract/errors.js';
import type { NotifyAnswer, NotifyPutBody } from '../../contract/notify-route.js';
import type { Problem } from '../../contract/problems.js';
import { loadFile } from '../../core/config/load-file.js';
import { readConfigText } from '../config/config-dir.js';
import type { ConfigWriter } from '../config/config-writer.js';
import { parseSettings, saveSettings } from '../config/settings-file.js';

const FILE = 'notify.yaml';

export type NotifyLoad = { value: NotifyFile; problem: string | null; problems: Problem[] };

/**
 * notify.yaml's text as the model; a missing file is the defaults (off), one that does not load too.
 * `problems` places each problem at its line and column, as a reload reports it.
 */
export function parseNotify(text: string | null): NotifyLoad {
  const parsed = parseSettings(FILE, NotifyFile, text);
  if (parsed.problem === null) return { ...parsed, problems: [] };
  const { problems } = loadFile(FILE, text, NotifyFile);
  const fallback: Problem = {
    path: '',
    field: null,
    message: parsed.problem,
    file: FILE,
    line: null,
    col: null,
  };
  return { ...parsed, problems: problems.length > 0 ? problems : [fallback] };
}

/**
 * `GET`/`PUT /api/notify`: notify.yaml as a settings form. The URL and the secret are never shown
 * back (a Slack or Telegram URL carries its own token), only whether they are set. A save merges
 * the body over the file key by key, comments kept, checks the result, and writes it atomically,
 * readable by its owner only.
 */
export class NotifySettings {
  private current: NotifyLoad;

  constructor(private readonly writer: ConfigWriter) {
    this.current = this.read();
  }

  private read(): NotifyLoad {
    return parseNotify(readConfigText(this.writer.configDir, FILE));
  }

  /** Rereads the file (`admin reload`, a save). */
  reload(): NotifyLoad {
    this.current = this.read();
    return this.current;
  }

  /** The problems of the file on disk now, without loading it. */
  check(): Problem[] {
    return this.read().problems;
  }

  /** Why the file running does not load (no notification is sent then); [] when it loads. */
  get problems(): Problem[] {
    return this.current.problems;
  }

  get file(): NotifyFile {
    return this.current.value;
  }

  get problem(): string | null {
    return this.current.problem;
  }

  view(): NotifyAnswer {
    const f = this.current.value;
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

  async save(body: NotifyPutBody): Promise<NotifyAnswer> {
    await this.writer.run((files) => {
      saveSettings(files, {
        file: FILE,
        schema: NotifyFile,
        patch: body,
        mode: 0o600,
        refuse: (reason, field, message) =>
          new JigError('notify_invalid', { reason }, { issues: [{ field, message }] }),
      });
      this.reload();
    });
    return this.view();
  }
}
