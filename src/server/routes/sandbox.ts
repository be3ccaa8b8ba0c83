import { getSandbox } from '../../contract/routes/sandbox.js';
import { kindOf } from '../../core/sandbox/check.js';
import { bestKind, detectSandboxes } from '../../runtime/sandbox/detect.js';
import type { Services } from '../compose.js';
import { routeFile } from '../route-file.js';

/** What this machine can jail tasks with, for the wizard and Settings (docs/sandbox.md). */
export const sandboxRoutes = routeFile(import.meta.url, (r, inst: Pick<Services, 'config'>) => {
  r.serve(getSandbox, async () => {
    const { kinds, at } = await detectSandboxes();
    const own = inst.config.policy?.sandbox;
    return {
      kinds,
      best: bestKind(kinds),
      instance_default: own === undefined ? null : kindOf(own),
      checked_at: new Date(at).toISOString(),
    };
  });
});
