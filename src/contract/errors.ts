/**
 * The one error catalogue. Every error Jig answers over HTTP has a stable `code` here, an HTTP status
 * and a message template; `docs/errors.md` lists every code and a test checks both ways.
 * Wire shape: `{detail, code, ...extra}` (`detail` is the spec's key).
 */
export const errorCatalogue = {
  route_not_found: { status: 404, template: 'no route {method} {path}' },
  not_found: { status: 404, template: '{what} not found' },
  invalid_json: { status: 400, template: 'the request body is not valid JSON: {reason}' },
  bad_request: { status: 400, template: '{reason}' },
  validation_failed: { status: 422, template: '{reason}' },
  unsupported_media_type: { status: 415, template: 'send the body as application/json (got {type})' },
  payload_too_large: { status: 413, template: 'the request body is larger than {limit} bytes' },
  method_not_allowed: { status: 405, template: '{method} is not allowed on {path}' },
  config_refused: { status: 422, template: 'a configuration file was refused: {files}' },
  not_supervised: { status: 409, template: '{reason}' },
  internal: { status: 500, template: 'internal error: {reason}' },
} as const satisfies Record<string, { status: number; template: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

export interface ErrorBody {
  detail: string;
  code: ErrorCode;
  [extra: string]: unknown;
}

function fill(template: string, params: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => String(params[key] ?? `{${key}}`));
}

/** A typed error a service throws; the server's one error handler maps it to status + body. */
export class JigError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly extra: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    params: Record<string, string | number> = {},
    extra: Record<string, unknown> = {},
  ) {
    const entry = errorCatalogue[code];
    super(fill(entry.template, params));
    this.name = 'JigError';
    this.code = code;
    this.status = entry.status;
    this.extra = extra;
  }

  toBody(): ErrorBody {
    return { ...this.extra, detail: this.message, code: this.code };
  }
}
