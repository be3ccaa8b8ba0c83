import { RESTART_EXIT_CODE } from '../../contract/apply.js';
import { JigError } from '../../contract/errors.js';
import { applyReload, getApply, restartServer } from '../../contract/routes/apply.js';
import { applyState } from '../../runtime/config/apply-state.js';
import type { Services } from '../compose.js';
import { installedVersion } from '../../runtime/package-root.js';
import { reloadHandler } from '../reload-handler.js';
import { routeFile } from '../route-file.js';

/** What is saved but not running yet, and the two ways to run it: reload, or restart. */
export const applyRoutes = routeFile(
  import.meta.url,
  (
    r,
    inst: Pick<Services, 'accessSettings' | 'config' | 'paths' | 'requestRestart' | 'supervised' | 'version'>,
  ) => {
    r.serve(applyReload, reloadHandler(inst));

    r.serve(getApply, async () =>
      applyState(
        inst.paths.configDir,
        inst.config,
        { version: inst.version, installed: installedVersion(), supervised: inst.supervised },
        { running_sha256: inst.accessSettings.startSha, listen_changed: inst.accessSettings.restartNeeded() },
      ),
    );

    r.serve(
      restartServer,
      async (req, reply) => {
        if (!inst.supervised) {
          throw new JigError('not_supervised', {
            reason:
              'no service manager started this server (systemd sets INVOCATION_ID; under another manager set JIG_SUPERVISED=1), so nothing would start it again; restart it yourself',
          });
        }
        if (!inst.requestRestart) {
          throw new JigError('not_supervised', {
            reason: 'this server runs inside another program, which owns its process; restart that program',
          });
        }
        req.log.warn(
          { exit_code: RESTART_EXIT_CODE },
          'restart asked: stopping, then exiting for the service manager',
        );
        return reply.code(202).send({
          restarting: true,
          exit_code: RESTART_EXIT_CODE,
          detail: `stopping; the process exits with ${RESTART_EXIT_CODE} and the service manager starts it again`,
        });
      },
      {
        // After the answer has gone out: the process stops as on SIGTERM and exits non-zero.
        onResponse: async (_req, reply) => {
          if (reply.statusCode === 202) inst.requestRestart?.(RESTART_EXIT_CODE);
        },
      },
    );
  },
);
