import { ThemeFile } from '../../contract/config/theme.js';
import { JigError } from '../../contract/errors.js';
import {
  getAccess,
  getTheme,
  putAccess,
  putAccessPassword,
  putTheme,
  rotateTokens,
} from '../../contract/routes/settings.js';
import { writeFileAtomic } from '../../runtime/home/atomic-write.js';
import { newToken } from '../../runtime/home/tokens.js';
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
  r.serve(putAccessPassword, async (req) => {
    const answer = await inst.accessSettings.setPassword(req.body.password, req.body.current);
    req.log.warn({ password_set: answer.password_set }, 'the login password was changed from Settings');
    return answer;
  });
  r.serve(rotateTokens, async (req) => {
    const paths = { mcp: inst.paths.mcpTokenPath, trigger: inst.paths.triggerTokenPath };
    const rotated = [...new Set(req.body.tokens)];
    // The token files are reread when they change: the old value is refused from the next request.
    for (const name of rotated) writeFileAtomic(paths[name], `${newToken()}\n`, 0o600);
    req.log.warn({ rotated }, 'tokens rotated from Settings');
    return { rotated };
  });
});
