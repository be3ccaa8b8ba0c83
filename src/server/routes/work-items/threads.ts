import { flagOn } from '../../../contract/review.js';
import {
  getFixTarget,
  listItemThreads,
  postThread,
  reopenThread,
  resolveThread,
  submitGateReview,
  submitReview,
} from '../../../contract/routes/work-items/threads.js';
import type { Services } from '../../compose.js';
import { routeFile } from '../../route-file.js';
import { workerOf } from './draft.js';

/** Review threads, reviews and the fix target of an item. */
export const threadRoutes = routeFile(
  import.meta.url,
  (r, inst: Pick<Services, 'items' | 'reviews' | 'threads'>) => {
    r.serve(listItemThreads, async (req) => inst.threads.list(req.params.id, flagOn(req.query.open_only)));
    r.serve(postThread, async (req, reply) =>
      reply.code(201).send(await inst.threads.post(req.params.id, req.body, workerOf(req.headers))),
    );
    r.serve(resolveThread, async (req) =>
      inst.threads.setState(req.params.id, req.params.thread, 'resolved', workerOf(req.headers)),
    );
    r.serve(reopenThread, async (req) =>
      inst.threads.setState(req.params.id, req.params.thread, 'open', workerOf(req.headers)),
    );
    r.serve(getFixTarget, async (req) => inst.reviews.fixTarget(req.params.id, req.query.node));
    r.serve(submitReview, async (req) => {
      const { review, rec } = await inst.reviews.submit(
        req.params.id,
        req.body,
        undefined,
        workerOf(req.headers),
        req.actor,
      );
      return { review, item: inst.items.dto(rec) };
    });
    r.serve(submitGateReview, async (req) => {
      const { review, rec } = await inst.reviews.submit(
        req.params.id,
        req.body,
        req.params.gate,
        workerOf(req.headers),
        req.actor,
      );
      return { review, item: inst.items.dto(rec) };
    });
  },
);
