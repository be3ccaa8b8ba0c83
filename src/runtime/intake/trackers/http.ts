import { z } from 'zod';

/*
 * The HTTP of the trackers that are not a forge (Linear, Jira): one bounded request, answered as
 * JSON or as a TrackerError that says what to fix. A token never appears in a message.
 */

export type TrackerErrorKind = 'auth' | 'not_found' | 'refused' | 'timeout' | 'unreachable';

export class TrackerError extends Error {
  constructor(
    readonly kind: TrackerErrorKind,
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'TrackerError';
  }
}

const ErrorBody = z.object({
  errors: z.array(z.object({ message: z.string() })).optional(),
  errorMessages: z.array(z.string()).optional(),
  message: z.string().optional(),
});

/** What an error answer says: GraphQL's first error, Jira's first message, else its start. */
function errorText(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text.slice(0, 300);
  }
  const b = ErrorBody.safeParse(parsed);
  const said = b.success
    ? (b.data.errors?.[0]?.message ?? b.data.errorMessages?.[0] ?? b.data.message)
    : undefined;
  return (said ?? text).slice(0, 300);
}

/** One request; `where` names it in errors, `tokenVar` the variable to fix when the token is refused. */
export async function trackerRequest(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: unknown },
  o: { where: string; tokenVar: string; timeoutMs: number },
): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method,
      headers: {
        accept: 'application/json',
        ...init.headers,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      signal: AbortSignal.timeout(o.timeoutMs),
    });
  } catch (err) {
    const e = err as { name?: unknown; message?: unknown };
    const timeout = e.name === 'TimeoutError' || e.name === 'AbortError';
    throw new TrackerError(timeout ? 'timeout' : 'unreachable', `${o.where}: ${String(e.message ?? err)}`);
  }
  const text = await res.text();
  const said = res.ok ? '' : errorText(text);
  // Linear answers a refused key 400 with a GraphQL authentication error, not 401.
  if (res.status === 403 && !/authenticat/i.test(said))
    throw new TrackerError('refused', `${o.where}: not permitted (403${said ? `: ${said}` : ''})`, 403);
  if (res.status === 401 || res.status === 403 || /not authenticated|authentication/i.test(said))
    throw new TrackerError(
      'auth',
      `${o.where}: ${o.tokenVar} was refused (${res.status}${said ? `: ${said}` : ''})`,
      res.status,
    );
  if (res.status === 404) throw new TrackerError('not_found', `${o.where}: not found (404)`, 404);
  if (!res.ok)
    throw new TrackerError('refused', `${o.where}: ${said || 'refused'} (${res.status})`, res.status);
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new TrackerError(
      'refused',
      `${o.where}: the answer is not JSON: ${text.slice(0, 120)}`,
      res.status,
    );
  }
}
