import { ThemeFile } from '../../contract/config/theme.js';
import type { ThemeAnswer, ThemePutBody } from '../../contract/settings-route.js';
import { readConfigText } from './config-dir.js';
import type { ConfigWriter } from './config-writer.js';
import { parseSettings, saveSettings, settingsRefusal } from './settings-file.js';

const FILE = 'theme.yaml';

/** `GET`/`PUT /api/theme`: theme.yaml as a settings form, comments kept (docs/config/theme.md). */
export class ThemeSettings {
  constructor(private readonly writer: ConfigWriter) {}

  view(): ThemeAnswer {
    const t = parseSettings(FILE, ThemeFile, readConfigText(this.writer.configDir, FILE));
    return { ...t.value, problem: t.problem };
  }

  async save(body: ThemePutBody): Promise<ThemeAnswer> {
    await this.writer.run((files) =>
      saveSettings(files, { file: FILE, schema: ThemeFile, patch: body, refuse: settingsRefusal(FILE) }),
    );
    return this.view();
  }
}
