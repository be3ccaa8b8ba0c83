import type { FastifyInstance } from 'fastify';
import { JigError } from '../contract/errors.js';
import { tooDeep } from '../core/json/depth.js';
import { poisonedKey } from '../core/json/poisoned.js';

/**
 * How deep a JSON body may nest. Every body Jig reads is a few levels deep (policy, overrides,
 * attachments); past a few hundred levels the recursive code that handles objects (validators,
 * YAML writers, JSON.stringify, structuredClone) overflows the stack, which answered 500 before
 * (issue 14, finding 6). 32 is far above any real body and far below any stack.
 */
export const MAX_JSON_DEPTH = 32;

/** `body.agent_overrides.a.b…`: the first few keys are enough to find it, the rest would be noise. */
function fieldOf(path: string[]): string {
  const shown = path.slice(0, 4);
  return ['body', ...shown].join('.') + (path.length > shown.length ? '…' : '');
}

function parsedOrNull(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/**
 * Replaces Fastify's JSON body parser with the same parser (prototype-poisoning checks included)
 * followed by the depth bound, so a deep body is a 422 naming its field before any route sees it.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    // The default parser answers through the callback; its return value carries nothing.
    void parse(req, body as string, (err, value) => {
      const refuse = (path: string[], message: string): void => {
        const field = fieldOf(path);
        done(
          new JigError(
            'validation_failed',
            { reason: `${field}: ${message}` },
            { issues: [{ field, message }] },
          ),
          undefined,
        );
      };
      if (err) {
        // Valid JSON the parser refused holds a prototype-poisoning key: name it, as any field is.
        const poisoned = poisonedKey(parsedOrNull(body as string));
        if (poisoned === null) return done(err, undefined);
        return refuse(poisoned, `a key named ${poisoned.at(-1)} is not accepted`);
      }
      const path = tooDeep(value, MAX_JSON_DEPTH);
      if (path === null) return done(null, value);
      refuse(path, `nests deeper than ${MAX_JSON_DEPTH} levels`);
    });
  });
}
