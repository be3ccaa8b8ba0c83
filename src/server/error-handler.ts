import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { isJigError, JigError, type ErrorBody } from '../contract/errors.js';
import { escapeHtml, sendHtml, simplePage } from './html.js';
import { keysAt } from '../core/config/schema-keys.js';
import { didYouMean, suggest } from '../core/config/suggest.js';
import { z } from 'zod';

function wantsHtml(req: FastifyRequest): boolean {
  return !req.url.startsWith('/api') && (req.headers.accept ?? '').includes('text/html');
}

/** `body.title`, `query.limit`: names the field a validation issue is about. */
function fieldName(context: string | undefined, instancePath: string): string {
  const where = context ?? 'body';
  const path = instancePath.split('/').filter(Boolean);
  return path.length === 0 ? where : `${where}.${path.join('.')}`;
}

/**
 * "; did you mean `chain`?" for an unknown key of a body, as the YAML loader says it (one
 * vocabulary for a typo wherever it is made); empty when no key is close or the schema is unknown.
 */
const HINTED_KEYS = 10;

function unknownKeyHint(
  req: FastifyRequest,
  context: string | undefined,
  v: { keyword: string; instancePath: string; params: Record<string, unknown> },
): string {
  if (v.keyword !== 'unrecognized_keys' || (context ?? 'body') !== 'body') return '';
  const schema: unknown = req.routeOptions.schema?.body;
  const keys = v.params.keys;
  if (!(schema instanceof z.ZodType) || !Array.isArray(keys)) return '';
  const path = v.instancePath.split('/').filter(Boolean);
  let known: string[];
  try {
    known = keysAt(schema, req.body, path);
  } catch {
    return '';
  }
  let obj: unknown = req.body;
  for (const seg of path)
    obj = obj && typeof obj === 'object' ? (obj as Record<string, unknown>)[seg] : undefined;
  const present = new Set(obj && typeof obj === 'object' ? Object.keys(obj) : []);
  if (keys.length === 1) return didYouMean(String(keys[0]), known, { present });
  // A hint for the first few: a body of ten thousand unknown keys is not ten thousand typos.
  return keys
    .slice(0, HINTED_KEYS)
    .map((k) => [String(k), suggest(String(k), known, { present })] as const)
    .filter(([, best]) => best !== undefined)
    .map(([k, best]) => `; did you mean \`${best}\` for "${k}"?`)
    .join('');
}

function send(reply: FastifyReply, err: JigError): FastifyReply {
  return reply.code(err.status).send(err.toBody() satisfies ErrorBody);
}

/**
 * The one place errors become answers. Bad input is always a 4xx that names what was wrong; a 500
 * means a bug, and is logged with its stack.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? req.url;
    if (wantsHtml(req)) {
      return sendHtml(
        reply,
        404,
        simplePage(
          'Not found',
          `<p>Nothing is at <code>${escapeHtml(path)}</code>. <a href="/">Open the board</a>.</p>`,
        ),
      );
    }
    return send(reply, new JigError('route_not_found', { method: req.method, path }));
  });

  app.setErrorHandler((error: FastifyError, req, reply) => {
    if (isJigError(error)) {
      // A 5xx is ours or a dependency's fault: whoever reads the log needs what happened underneath.
      if (error.status >= 500)
        req.log.error(
          { err: error.cause ?? error },
          `answered ${error.status} ${error.code}: ${error.message}`,
        );
      return send(reply, error);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => ({
        field: fieldName(error.validationContext, v.instancePath),
        message: v.message + unknownKeyHint(req, error.validationContext, v),
      }));
      const detail = issues.map((i) => `${i.field}: ${i.message}`).join('; ');
      return send(reply, new JigError('validation_failed', { reason: detail }, { issues }));
    }
    if (isResponseSerializationError(error)) {
      req.log.error({ err: error, issues: error.cause.issues }, 'response does not match its schema');
      return send(reply, new JigError('internal', { reason: 'the answer did not match its schema' }));
    }
    switch (error.code) {
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return send(
          reply,
          new JigError('unsupported_media_type', { type: req.headers['content-type'] ?? 'none' }),
        );
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return send(
          reply,
          new JigError('payload_too_large', { limit: app.initialConfig.bodyLimit ?? 1048576 }),
        );
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return send(reply, new JigError('invalid_json', { reason: 'the body is empty' }));
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return send(reply, new JigError('invalid_json', { reason: error.message }));
      default:
        break;
    }
    if (error instanceof SyntaxError && error.statusCode === 400) {
      return send(reply, new JigError('invalid_json', { reason: error.message }));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ detail: error.message, code: 'bad_request' } satisfies ErrorBody);
    }
    req.log.error({ err: error }, 'unhandled error');
    return send(reply, new JigError('internal', { reason: 'see the server log' }));
  });
}

/**
 * Errors Fastify's router answers before any hook or handler (`frameworkErrors`): a path that is
 * not valid percent-encoded UTF-8 (`%ff`, `%zz`, a lone `%`), or a path param past the router's
 * length cap. Left to Fastify they answer a body of its own shape, outside the catalogue.
 */
export function answerFrameworkError(error: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  const err =
    error.code === 'FST_ERR_BAD_URL'
      ? new JigError('bad_request', { reason: 'path: not valid percent-encoded UTF-8' })
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? new JigError('validation_failed', { reason: 'path: a segment is too long' })
        : new JigError('bad_request', { reason: error.message });
  void send(reply, err);
}

/**
 * Node's `clientError`: a request that never became one (not HTTP, headers over the size limit, too
 * slow to arrive). There is no reply object, so the answer is written on the socket, as Fastify's
 * own handler does, with a catalogue body instead of Fastify's.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // A reset socket is gone: there is nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // An answer already under way on this connection (a pipelined request timing out behind it):
  // writing ours now would land inside its body. End the connection instead, as Node itself does.
  const current = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (current?.headersSent) {
    socket.destroy(error);
    return;
  }
  const err =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? new JigError('request_timeout')
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? new JigError('headers_too_large', { limit: maxHeaderSize })
        : new JigError('bad_request', { reason: 'the request is not valid HTTP/1.1' });
  const body = JSON.stringify(err.toBody());
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${err.status} ${STATUS_CODES[err.status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
