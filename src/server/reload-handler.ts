import { JigError } from '../contract/errors.js';
import type { applyReload } from '../contract/routes/apply.js';
import type { Instance } from '../runtime/instance.js';
import type { Handler } from './route-file.js';

/** `POST /api/apply/reload` and `POST /api/templates/reload`: one reload, answered at either path. */
export function reloadHandler(inst: Pick<Instance, 'config'>): Handler<typeof applyReload> {
  return async (req, reply) => {
    const answer = inst.config.reload();
    for (const r of answer.refused)
      req.log.warn({ file: r.file, problems: r.problems }, 'config file refused');
    if (answer.refused.length === 0) return answer;
    const err = new JigError('config_refused', { files: answer.refused.map((r) => r.file).join(', ') });
    return reply.code(422).send({ ...answer, detail: err.message, code: 'config_refused' as const });
  };
}
