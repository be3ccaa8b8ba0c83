import { z } from 'zod';
import { ErrorBodySchema } from '../../error-body.js';
import { WorkItem } from '../../items.js';
import { defineRoute } from '../../route.js';
import { GateParams, ItemIdParams, Note, itemErrors } from './params.js';

/** The gate request a decision answers: `gate_request` of the item as the sender saw it. */
export const GateRequest = z
  .number()
  .int()
  .positive()
  .optional()
  .describe(
    "the item's gate_request you saw: the decision applies only while that request is open (else 409 gate_not_waiting); without it, to the request open when the decision arrives",
  );

export const ApproveBody = z
  .object({
    request: GateRequest,
    digest: z
      .string()
      .regex(/^[0-9a-f]{64}$/, 'a sha256 in hex, as the artifact and documents routes give it')
      .optional()
      .describe("the digest of the gate's document you read: a changed document is 409, nothing approved"),
  })
  .strict()
  .nullish();

export const RejectBody = z
  .object({ note: Note, node: z.string().min(1).optional(), request: GateRequest })
  .strict();

/** The document a pending gate shows the person deciding it. */
export const GateArtifact = z.object({
  gate: z.string(),
  kind: z.string(),
  path: z.string(),
  text: z.string(),
  /** sha256 of the text: approve with it to approve exactly this revision. */
  digest: z.string(),
});

export const approveGate = defineRoute({
  operationId: 'approveGate',
  method: 'POST',
  path: '/api/work-items/:id/gates/:gate/approve',
  summary:
    'Approve the pending gate request (the same decision again answers the item as it is; another decision on an answered request is 409)',
  tags: ['gates'],
  params: GateParams,
  body: ApproveBody,
  responses: { 200: WorkItem, ...itemErrors },
});

export const rejectGate = defineRoute({
  operationId: 'rejectGate',
  method: 'POST',
  path: '/api/work-items/:id/gates/:gate/reject',
  summary: 'Reject the pending gate; the chain goes back to reject_to with the note as a steer',
  tags: ['gates'],
  params: GateParams,
  body: RejectBody,
  responses: { 200: WorkItem, ...itemErrors },
});

export const gateArtifact = defineRoute({
  operationId: 'gateArtifact',
  method: 'GET',
  path: '/api/work-items/:id/artifact',
  summary: "Read the pending gate's document",
  tags: ['gates'],
  params: ItemIdParams,
  responses: { 200: GateArtifact, 404: ErrorBodySchema },
});
