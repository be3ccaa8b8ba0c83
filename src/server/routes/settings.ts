import {
  getAccess,
  getTheme,
  putAccess,
  putAccessPassword,
  putTheme,
  rotateTokens,
} from '../../contract/routes/settings.js';
import { rotateTokenFiles } from '../../runtime/home/tokens.js';
import type { Services } from '../compose.js';
import { routeFile } from '../route-file.js';

/** Appearance (theme.yaml) and access (access.yaml, the password, the tokens) settings. */
export const settingsRoutes = routeFile(
  import.meta.url,
  (r, inst: Pick<Services, 'accessSettings' | 'paths' | 'theme'>) => {
    const { theme } = inst;
    r.serve(getTheme, async () => theme.view());
    r.serve(putTheme, async ({ body }) => theme.save(body));
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
      rotateTokenFiles(rotated.map((name) => paths[name]));
      req.log.warn({ rotated }, 'tokens rotated from Settings');
      return { rotated };
    });
  },
);
