import { ThemeFile } from '../../contract/config/theme.js';
import { JigError } from '../../contract/errors.js';
import { getAccess, getTheme, putAccess, putTheme } from '../../contract/routes/settings.js';
import { readConfigText } from '../../runtime/config/config-dir.js';
import { parseSettings, saveSettings } from '../../runtime/config/settings-file.js';
import type { Instance } from '../../runtime/instance.js';
import { routeFile } from '../route-file.js';

/** Appearance (theme.yaml) and access (access.yaml) settings. */
export const settingsRoutes = routeFile(import.meta.url, (r, inst: Instance) => {
  const theme = () => {
    const t = parseSettings('theme.yaml', ThemeFile, readConfigText(inst.paths.configDir, 'theme.yaml'));
    return { ...t.value, problem: t.problem };
  };
  r.serve(getTheme, async () => theme());
  r.serve(putTheme, async ({ body }) => {
    saveSettings({
      configDir: inst.paths.configDir,
      file: 'theme.yaml',
      schema: ThemeFile,
      patch: body,
      refuse: (reason, field, message) =>
        new JigError('settings_invalid', { file: 'theme.yaml', reason }, { issues: [{ field, message }] }),
    });
    return theme();
  });
  r.serve(getAccess, async () => inst.accessSettings.view());
  r.serve(putAccess, async ({ body }) => inst.accessSettings.save(body));
});
