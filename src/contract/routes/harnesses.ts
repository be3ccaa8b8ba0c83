import { HarnessesAnswer, ProvidersAnswer } from '../harnesses-route.js';
import { defineRoute } from '../route.js';
import { ProfilesAnswer } from '../templates.js';

export const harnessProfiles = defineRoute({
  method: 'GET',
  path: '/api/harnesses/profiles',
  summary:
    'Harness entries and agent profiles from harnesses.yaml, each profile with its model and effort per provider',
  tags: ['harnesses'],
  responses: { 200: ProfilesAnswer },
});

export const listHarnesses = defineRoute({
  method: 'GET',
  path: '/api/harnesses',
  summary: 'Each harness of harnesses.yaml: its provider, whether its CLI is installed here, and its version',
  tags: ['harnesses'],
  responses: { 200: HarnessesAnswer },
});

export const listProviders = defineRoute({
  method: 'GET',
  path: '/api/harnesses/providers',
  summary: 'Each provider (agent CLI) Jig knows and what it can take: system prompt, model, tools, resume',
  tags: ['harnesses'],
  responses: { 200: ProvidersAnswer },
});
