import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** What the forge mocks share: a JSON answer, a JSON body read, a loopback listen. */
export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body === undefined ? '' : JSON.stringify(body));
}

export async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
}

/** Listens on a free loopback port; answers the server's base URL. */
export async function listenLoopback(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const a = server.address();
  return `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
}

export function text(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(body);
}

/**
 * The commit a mock forge says a merge made: 40 hex digits ending in the merge request's number,
 * so a test can set the post-merge CI of `mergeShaOf(1)` before the merge happens.
 */
export function mergeShaOf(number: number): string {
  return `${'ab'.repeat(16)}${number.toString(16).padStart(8, '0')}`;
}

/**
 * The head sha of an open merge request: from the test's `shaOf` (a branch's real tip on a bare
 * origin) when it gives one, else what it had; a branch that is not there (yet) keeps it.
 */
export function headSha(shaOf: ((branch: string) => string) | null, branch: string, had: string): string {
  if (!shaOf) return had;
  try {
    return shaOf(branch) || had;
  } catch {
    return had;
  }
}
