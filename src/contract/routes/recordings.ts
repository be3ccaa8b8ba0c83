import { z } from 'zod';
import { ErrorBodySchema } from '../error-body.js';
import { Recording, RecordingName, RecordingSummary } from '../recording.js';
import { defineRoute } from '../route.js';
import { ItemIdParams } from './work-items/params.js';

export const RecordAnswer = z.object({
  name: RecordingName,
  path: z.string().describe('the file, under the home’s recordings/'),
  sessions: z.number().int(),
  gates: z.number().int(),
  not_captured: z
    .number()
    .int()
    .describe(
      'agent sessions whose changes were not captured (before recordings, or lost): replayed with none',
    ),
});

export const recordItem = defineRoute({
  operationId: 'recordItem',
  method: 'POST',
  path: '/api/work-items/:id/recording',
  summary:
    'Keep the item’s run as a recording: each session’s answer, the files it changed and its stream, each gate decision, in one file a chain test replays (docs/chain-tests.md)',
  tags: ['chain tests'],
  params: ItemIdParams,
  responses: { 201: RecordAnswer, 404: ErrorBodySchema },
});

export const listRecordings = defineRoute({
  operationId: 'listRecordings',
  method: 'GET',
  path: '/api/recordings',
  summary: 'The home’s recordings, newest first',
  tags: ['chain tests'],
  responses: { 200: z.object({ recordings: z.array(RecordingSummary) }) },
});

export const RecordingParams = z.object({ name: RecordingName });

export const getRecording = defineRoute({
  operationId: 'getRecording',
  method: 'GET',
  path: '/api/recordings/:name',
  summary: 'One recording, whole',
  tags: ['chain tests'],
  params: RecordingParams,
  responses: { 200: Recording, 404: ErrorBodySchema, 422: ErrorBodySchema },
});
