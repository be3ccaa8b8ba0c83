import { discoverServer, type Discovered } from './discover.js';

/** The server could not be reached at all (not running, wrong address). */
export class UnreachableError extends Error {
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    super(`no Jig server answers at ${url} (${(cause as Error).message}); start one with \`jig serve\``);
    this.name = 'UnreachableError';
  }
}

/** The server answered with an error status; `body` is its JSON error (`{detail, code, ...}`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { detail?: string; code?: string; [k: string]: unknown },
  ) {
    super(body.detail ?? `HTTP ${status}`);
    this.name = 'ApiError';
  }
}

export interface ApiResult<T> {
  status: number;
  body: T;
}

/** A typed HTTP client of Jig's own API, shared by the CLI and the MCP server. */
export class JigClient {
  readonly server: Discovered;

  constructor(server?: Partial<Discovered>) {
    const found = discoverServer();
    this.server = { ...found, ...server };
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<ApiResult<T>> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.server.token) headers.authorization = `Bearer ${this.server.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(`${this.server.url}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      throw new UnreachableError(this.server.url, (err as { cause?: unknown }).cause ?? err);
    }
    const text = await res.text();
    let parsed: unknown = null;
    if (!(res.headers.get('content-type') ?? '').includes('json')) parsed = text;
    else {
      try {
        parsed = text.length > 0 ? JSON.parse(text) : null;
      } catch {
        parsed = { detail: text.slice(0, 500) };
      }
    }
    return { status: res.status, body: parsed as T };
  }

  /** Like request, but any status outside 2xx becomes an ApiError. */
  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.request<T>(method, path, body);
    if (res.status < 200 || res.status >= 300) throw new ApiError(res.status, res.body as ApiError['body']);
    return res.body;
  }
}
