import type { z } from 'zod';
import type { CreateItemBody, DryRunAnswer, ListItemsQuery, WorkItem } from '../contract/items.js';
import {
  escalateItem as escalate,
  stopEscalation as stopTurn,
} from '../contract/routes/work-items/escalate.js';
import { readItemEvents } from '../contract/routes/work-items/events.js';
import {
  createItem as create,
  getItem as get,
  listItems as list,
} from '../contract/routes/work-items/index.js';
import {
  abandonItem,
  archiveItem,
  cancelItem,
  completeItem,
  restoreItem,
} from '../contract/routes/work-items/moves.js';
import {
  pauseItem,
  resumeItem,
  retryItem,
  skipItem,
  unblockItem,
} from '../contract/routes/work-items/run.js';
import { listSessions as sessions, readSessionLog } from '../contract/routes/work-items/sessions.js';
import { UnexpectedAnswerError, type JigClient } from './http.js';

export type CreateItemInput = z.input<typeof CreateItemBody>;

/** Files an item (never a dry run: that answers what would be filed, not an item). */
export async function createItem(c: JigClient, body: CreateItemInput): Promise<WorkItem> {
  const answer = await c.call(create, { body });
  if ('dry_run' in answer)
    throw new UnexpectedAnswerError(
      `${create.method} ${create.path}`,
      200,
      'a dry run answered for a filing',
    );
  return answer;
}

/** What a filing would be (`?dry_run=1`): its nodes, gates, cap and the launches that cannot start here. */
export async function dryRunItem(c: JigClient, body: CreateItemInput): Promise<z.infer<typeof DryRunAnswer>> {
  const answer = await c.call(create, { body, query: { dry_run: '1' } });
  if (!('dry_run' in answer))
    throw new UnexpectedAnswerError(
      `${create.method} ${create.path}`,
      201,
      'a filing answered for a dry run',
    );
  return answer;
}

export const getItem = (c: JigClient, id: string) => c.call(get, { params: { id } });

export const listItems = (c: JigClient, query: z.input<typeof ListItemsQuery>) => c.call(list, { query });

export type ItemMove = 'cancel' | 'complete' | 'archive' | 'restore' | 'abandon';

const moveRoutes = {
  cancel: cancelItem,
  complete: completeItem,
  archive: archiveItem,
  restore: restoreItem,
  abandon: abandonItem,
} as const;

export const moveItem = (c: JigClient, id: string, move: ItemMove, reason?: string) =>
  c.call(moveRoutes[move], { params: { id }, body: reason ? { reason } : {} });

/** A completion by hand; `closeBeads` closes its issues though nothing changed on its branch. */
export const completeByHand = (c: JigClient, id: string, reason?: string, closeBeads?: boolean) =>
  c.call(completeItem, {
    params: { id },
    body: { ...(reason ? { reason } : {}), ...(closeBeads ? { close_beads: true } : {}) },
  });

/** Drops one dependency of the item (or all); a blocked item with nothing left to wait on starts. */
export const unblock = (c: JigClient, id: string, dependency?: string) =>
  c.call(unblockItem, { params: { id }, body: dependency ? { dependency } : {} });

export const escalateItem = (c: JigClient, id: string, message: string, newThread = false) =>
  c.call(escalate, { params: { id }, body: { message, ...(newThread ? { new_thread: true } : {}) } });

export const stopEscalation = (c: JigClient, id: string) => c.call(stopTurn, { params: { id } });

export const readEvents = (c: JigClient, id: string, after?: number, limit = 1000) =>
  c.call(readItemEvents, { params: { id }, query: { limit, after } });

export const listSessions = (c: JigClient, id: string) => c.call(sessions, { params: { id } });

export const readLog = (c: JigClient, id: string, session: string, tail?: number): Promise<string> =>
  c.call(readSessionLog, { params: { id, session }, query: { tail } });

/** The moves the engine makes: resume, pause, retry and skip. */
export type RunMove = 'resume' | 'pause' | 'retry' | 'skip';

/** What the run moves take, flat as the CLI's options; each move sends the parts it takes. */
export interface RunMoveInput {
  note?: string;
  steer?: string;
  /** A resume's notes for the next launch of named tasks, by task path. */
  steers?: Record<string, string>;
  path?: string;
  model?: string;
  effort?: string;
  /** A retry in a fresh agent session. */
  restart?: boolean;
}

export function runMove(c: JigClient, id: string, move: RunMove, input: RunMoveInput): Promise<WorkItem> {
  const params = { id };
  switch (move) {
    case 'resume': {
      // The original's `--steer` and this CLI's `--note` are one field: the next launch's steer.
      const steers = input.steers && Object.keys(input.steers).length > 0 ? input.steers : undefined;
      return c.call(resumeItem, { params, body: { note: input.note ?? input.steer, steers } });
    }
    case 'pause':
      return c.call(pauseItem, { params });
    case 'skip':
      return c.call(skipItem, { params, body: { note: input.note, path: input.path } });
    case 'retry': {
      const taskConfig = { model: input.model, effort: input.effort };
      const tuned = input.model !== undefined || input.effort !== undefined;
      return c.call(retryItem, {
        params,
        body: {
          path: input.path,
          steer: input.steer,
          ...(input.restart ? { restart: true } : {}),
          ...(tuned ? { task_config: taskConfig } : {}),
        },
      });
    }
  }
}
