import {
  answerAsk,
  checkToolCall,
  createAsk,
  getAskRoute,
  listAllAsks,
  listItemAsks,
} from '../../../contract/routes/work-items/permission-asks.js';
import type { Services } from '../../compose.js';
import { routeFile } from '../../route-file.js';
import { workerOf } from './draft.js';

/** Permission asks: a worker's tool call waiting for a person's allow or deny. */
export const permissionAskRoutes = routeFile(import.meta.url, (r, inst: Pick<Services, 'asks' | 'gate'>) => {
  r.serve(createAsk, async (req, reply) =>
    reply.code(201).send(await inst.asks.ask(req.params.id, req.body, workerOf(req.headers))),
  );
  r.serve(listItemAsks, async (req) =>
    inst.asks.list({ item: req.params.id, ...(req.query.state ? { state: req.query.state } : {}) }),
  );
  r.serve(listAllAsks, async (req) => inst.asks.list(req.query.state ? { state: req.query.state } : {}));
  r.serve(getAskRoute, async (req) => inst.asks.get(req.params.id, req.params.ask, req.query.wait ?? 0));
  r.serve(checkToolCall, async (req) => inst.gate.check(req.params.id, req.body, workerOf(req.headers)));
  r.serve(answerAsk, async (req) =>
    inst.asks.answer(req.params.id, req.params.ask, req.body, workerOf(req.headers)),
  );
});
