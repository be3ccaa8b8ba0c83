import { z } from 'zod';
import { ErrorBodySchema } from '../error-body.js';
import { HarnessTestAnswer, HarnessTestBody } from '../harness-test.js';
import { HarnessesAnswer, ProvidersAnswer } from '../harnesses-route.js';
import { defineRoute } from '../route.js';
import { ProfilesAnswer } from '../templates.js';

export const harnessProfiles = defineRoute({
  operationId: 'harnessProfiles',
  method: 'GET',
  path: '/api/harnesses/profiles',
  summary:
    'Harness entries and agent profiles from harnesses.yaml, each profile with its model and effort per provider',
  tags: ['harnesses'],
  responses: { 200: ProfilesAnswer },
});

export const listHarnesses = defineRoute({
  operationId: 'listHarnesses',
  method: 'GET',
  path: '/api/harnesses',
  summary: 'Each harness of harnesses.yaml: its provider, whether its CLI is installed here, and its version',
  tags: ['harnesses'],
  responses: { 200: HarnessesAnswer },
});

export const listProviders = defineRoute({
  operationId: 'listProviders',
  method: 'GET',
  path: '/api/harnesses/providers',
  summary: 'Each provider (agent CLI) Jig knows and what it can take: system prompt, model, tools, resume',
  tags: ['harnesses'],
  responses: { 200: ProvidersAnswer },
});

export const getProvider = defineRoute({
  operationId: 'getProvider',
  method: 'GET',
  path: '/api/harnesses/providers/:id',
  summary: 'One provider (agent CLI) Jig knows, as the list answers it',
  tags: ['harnesses'],
  params: z.object({ id: z.string().min(1).max(100) }),
  responses: { 200: ProvidersAnswer.shape.providers.element, 404: ErrorBodySchema },
});

export const getProfile = defineRoute({
  operationId: 'getProfile',
  method: 'GET',
  path: '/api/harnesses/profiles/:name',
  summary: 'One agent profile of harnesses.yaml, with its model and effort per provider',
  tags: ['harnesses'],
  params: z.object({ name: z.string().min(1).max(100) }),
  responses: { 200: ProfilesAnswer.shape.profiles.element, 404: ErrorBodySchema },
});

export const testHarnessRoute = defineRoute({
  operationId: 'testHarness',
  method: 'POST',
  path: '/api/harnesses/:id/test',
  summary:
    "Run a harness's CLI once against Jig's mock model server (a throwaway repository, a private HOME) and answer what Jig read from its stream",
  tags: ['harnesses'],
  params: z.object({ id: z.string().min(1).max(100) }),
  body: HarnessTestBody,
  responses: { 200: HarnessTestAnswer, 404: ErrorBodySchema, 409: ErrorBodySchema },
});
