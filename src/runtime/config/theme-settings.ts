import { ThemeFile } from '../../contract/config/theme.js';
import type { ThemeAnswer, ThemePutBody } from '../../contract/settings-route.js';
import { readConfigText } from './config-dir.js';
import { parseSettings, saveSettings, settingsRefusal } from './settings-file.js';

const FILE = 'theme.yaml';

/** `GET`/`PUT /api/theme`: theme.yaml as a settings form, comments kept (docs/config/theme.md). */
export class ThemeSettings {
  constructor(private readonly configDir: string) {}

  view(): ThemeAnswer {
    const t = parseSettings(FILE, ThemeFile, readConfigText(this.configDir, FILE));
    return { ...t.value, problem: t.problem };
  }

  save(body: ThemePutBody): ThemeAnswer {
    saveSettings({
      configDir: this.configDir,
      file: FILE,
      schema: ThemeFile,
      patch: body,
      refuse: settingsRefusal(FILE),
    });
    return this.view();
  }
}
