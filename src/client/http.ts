import { realpathSync } from 'node:fs';
import type { z } from 'zod';
import { ErrorBodySchema, type ReceivedErrorBody } from '../contract/error-body.js';
import type { ErrorCode } from '../contract/errors.js';
import type { RouteContract } from '../contract/route.js';
import { HOME_MARK_HEADER, homeMark } from '../contract/home-mark.js';
import { VIA_HEADER } from '../contract/via.js';
import { discoverServer, jigHome, type Discovered } from './discover.js';
import { exchangeOnce, type WireAnswer } from './wire.js';

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
    readonly body: ReceivedErrorBody,
  ) {
    super(body.detail);
    this.name = 'ApiError';
  }

  /** Whether the error has this code; the argument is checked against the catalogue. */
  is(code: ErrorCode): boolean {
    return this.body.code === code;
  }
}

/**
 * The server's answer is not what the route's contract says it answers: another version of Jig,
 * or something else (a proxy) answering at that address. Raised rather than handing on an answer
 * the caller would misread.
 */
export class UnexpectedAnswerError extends Error {
  constructor(
    readonly route: string,
    readonly status: number,
    reason: string,
  ) {
    super(
      `the answer to ${route} (HTTP ${status}) is not what this client expects: ${reason}; ` +
        'is the server the same version of Jig as this client?',
    );
    this.name = 'UnexpectedAnswerError';
  }
}

type Part<K extends string, S> = S extends z.ZodType
  ? Record<never, never> extends z.input<S>
    ? { [P in K]?: z.input<S> }
    : { [P in K]: z.input<S> }
  : { [P in K]?: never };

/** What a call of a route sends: its path params, query, body and headers, each as the route takes it. */
export type RouteInput<R extends RouteContract> = Part<'params', R['params']> &
  Part<'query', R['query']> &
  Part<'body', R['body']> &
  Part<'headers', R['headers']>;

type Declared<R extends RouteContract> =
  R['responses'] extends Readonly<Record<number, z.ZodType>> ? R['responses'] : Record<never, never>;

/** Every answer a route declares: its status with the body checked against that status's schema. */
export type Answer<R extends RouteContract> = {
  [S in keyof Declared<R> & number]: { status: S; body: z.output<Declared<R>[S]> };
}[keyof Declared<R> & number];

/** The body of a route's success answer. */
export type Success<R extends RouteContract> = Extract<Answer<R>, { status: 200 | 201 | 202 | 204 }>['body'];

/** The input is optional for a route that needs nothing. */
type InputArg<R extends RouteContract> =
  Record<never, never> extends RouteInput<R> ? [input?: RouteInput<R>] : [input: RouteInput<R>];

interface RawInput {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
  headers?: Record<string, unknown>;
}

/** The parts of an input as the wire sees them (RouteInput typed them for the route above this). */
function rawInput(input: unknown): RawInput {
  return input ?? {};
}

/** A param, query or header value as text: what the route's schema reads back (coerced where it is a number). */
function wireText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return JSON.stringify(value) ?? '';
}

/** A checked answer; `error` is set for an error status (its body read as an error body). */
interface Checked {
  status: number;
  body: unknown;
  declared: boolean;
  error: ReceivedErrorBody | null;
}

function describeIssues(error: z.ZodError): string {
  const shown = error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length > 0 ? i.path.map(String).join('.') : 'the body'}: ${i.message}`);
  const more = error.issues.length > 3 ? ` (and ${error.issues.length - 3} more)` : '';
  return `${shown.join('; ')}${more}`;
}

/**
 * A typed HTTP client of Jig's own API, shared by the CLI and the MCP server. Every call names a
 * route description from contract/routes/, and every answer is checked against that route's
 * schemas before it is handed on (trigger.dev's `zodfetch` is the model).
 */
export class JigClient {
  readonly server: Discovered;
  /** The item whose worker this client speaks for; `undefined` reads it from the process's env. */
  private readonly workItem: string | null | undefined;
  private readonly via: string | null;

  /**
   * `workItem` names the worker's item for the `x-jig-work-item` header (null: none). Left out, the
   * process's own env decides, which is right for the CLI but not for a server answering `/mcp`
   * calls on behalf of another process's worker.
   */
  constructor(
    server?: Partial<Discovered> & {
      workItem?: string | null;
      /** What drives this client, sent as `x-jig-via` (contract/via.ts): the MCP tools say `mcp`. */
      via?: string;
      /** Called once when the server answering is not this home's (see checkHome). */
      onOtherHome?: (url: string, home: string) => void;
    },
  ) {
    const { workItem, onOtherHome, via, ...given } = server ?? {};
    this.via = via ?? null;
    const found = discoverServer();
    this.server = { ...found, ...given };
    this.workItem = workItem;
    this.onOtherHome = onOtherHome ?? JigClient.defaultOnOtherHome;
  }

  /** What a client made without its own `onOtherHome` does; the CLI sets it to print a note. */
  static defaultOnOtherHome: ((url: string, home: string) => void) | undefined;
  private readonly onOtherHome: ((url: string, home: string) => void) | undefined;
  private homeChecked = false;

  /**
   * Tells `onOtherHome` (once) when the server answering runs on another home than this client's:
   * found through the home's pid file or the default address, it should be the home's own server.
   * A server named by JIG_URL was chosen on purpose and is not second-guessed.
   */
  private checkHome(mark: string | null): void {
    if (this.homeChecked || mark === null || this.server.source === 'JIG_URL') return;
    this.homeChecked = true;
    const home = jigHome();
    if (mark !== homeMark(realOr(home))) this.onOtherHome?.(this.server.url, home);
  }

  /** The item a worker's call names: the option when given, else the env (not in an escalation turn). */
  private worker(): string | null {
    if (this.workItem !== undefined) return this.workItem;
    const fromEnv = process.env.JIG_WORK_ITEM_ID;
    return fromEnv && process.env.JIG_ESCALATION_TURN !== '1' ? fromEnv : null;
  }

  /**
   * Calls a route and answers whichever status it declares (an error status it declares too, such
   * as a 422 that carries a result); an error status it does not declare is an ApiError.
   */
  async send<const R extends RouteContract>(route: R, ...[input]: InputArg<R>): Promise<Answer<R>> {
    const res = await this.exchange(route, rawInput(input));
    if (res.error && !res.declared) throw new ApiError(res.status, res.error);
    // The body was checked against this very status's schema in exchange().
    return { status: res.status, body: res.body } as Answer<R>;
  }

  /** Calls a route and answers its success body; any error status is an ApiError. */
  async call<const R extends RouteContract>(route: R, ...[input]: InputArg<R>): Promise<Success<R>> {
    const res = await this.exchange(route, rawInput(input));
    if (res.error) throw new ApiError(res.status, res.error);
    // A success status the route declares, its body checked against that status's schema.
    return res.body as Success<R>;
  }

  private async exchange(route: RouteContract, input: RawInput): Promise<Checked> {
    const name = `${route.method} ${route.path}`;
    const path = route.path.replace(/:(\w+)/g, (_, key: string) =>
      encodeURIComponent(wireText(input.params?.[key] ?? '')),
    );
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(input.query ?? {})) if (v !== undefined) query.append(k, wireText(v));
    const qs = query.size > 0 ? `?${query.toString()}` : '';

    const headers: Record<string, string> = { accept: 'application/json' };
    for (const [k, v] of Object.entries(input.headers ?? {})) if (v !== undefined) headers[k] = wireText(v);
    if (this.server.token) headers.authorization = `Bearer ${this.server.token}`;
    // Inside an item's task the server must know whose worker asks: a worker may not read or change
    // its own item's draft. An escalation turn has the item's id too but is not a worker.
    const worker = this.worker();
    if (worker) headers['x-jig-work-item'] = worker;
    if (this.via) headers[VIA_HEADER] = this.via;
    if (input.body !== undefined) headers['content-type'] = 'application/json';
    let res: WireAnswer;
    try {
      res = await exchangeOnce(`${this.server.url}${path}${qs}`, {
        method: route.method,
        headers,
        ...(input.body === undefined ? {} : { body: JSON.stringify(input.body) }),
      });
    } catch (err) {
      throw new UnreachableError(this.server.url, err);
    }
    this.checkHome(res.header(HOME_MARK_HEADER));

    const text = res.text;
    const isJson = (res.header('content-type') ?? '').includes('json');
    let body: unknown = text;
    if (res.status === 204 || (isJson && text.length === 0)) body = null;
    else if (isJson) {
      try {
        body = JSON.parse(text);
      } catch {
        throw new UnexpectedAnswerError(name, res.status, `the body is not JSON (${text.slice(0, 200)})`);
      }
    }

    const schema = route.responses?.[res.status];
    const own = schema?.safeParse(body);
    if (res.status >= 400) {
      // Any route can answer a catalogue error it does not list (server/serializer.ts does the same).
      const plain = ErrorBodySchema.safeParse(body);
      if (!plain.success) {
        const shown = typeof body === 'string' ? `"${body.slice(0, 200)}"` : describeIssues(plain.error);
        throw new UnexpectedAnswerError(name, res.status, `not an error body: ${shown}`);
      }
      if (own?.success) return { status: res.status, body: own.data, declared: true, error: plain.data };
      return { status: res.status, body: plain.data, declared: false, error: plain.data };
    }
    if (!own) throw new UnexpectedAnswerError(name, res.status, 'the route does not answer this status');
    if (!own.success) throw new UnexpectedAnswerError(name, res.status, describeIssues(own.error));
    return { status: res.status, body: own.data, declared: true, error: null };
  }
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
