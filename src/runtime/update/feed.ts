import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { JigError } from '../../contract/errors.js';
import { scrubUrls, withoutCredentials } from '../../core/diagnostics/credentials.js';
import { packageRoot } from '../package-root.js';

/** The feed may take this long before the check gives up (a slow registry must not hang a request). */
export const FEED_TIMEOUT_MS = 10_000;
/** Abbreviated registry metadata is a few kB per version; past this the answer is not a feed's. */
const MAX_FEED_BYTES = 16 * 1024 * 1024;

/** The installed package's npm name, as its package.json says. */
export function packageName(): string {
  try {
    const pkg = z
      .object({ name: z.string() })
      .parse(JSON.parse(readFileSync(`${packageRoot}package.json`, 'utf8')));
    return pkg.name;
  } catch {
    return 'jig';
  }
}

/** `JIG_UPDATE_FEED` (a URL answering npm registry metadata), else the npm registry's document for the package. */
export function feedUrl(env: NodeJS.ProcessEnv, name: string): string {
  const set = env.JIG_UPDATE_FEED?.trim();
  if (set) return set;
  // A scoped name keeps its @ and encodes its slash, as the registry wants it.
  return `https://registry.npmjs.org/${name.replace('/', '%2f')}`;
}

const FeedDoc = z.object({ 'dist-tags': z.record(z.string(), z.string()) });

/**
 * The body as text, counted as it arrives: past MAX_FEED_BYTES the read stops and the stream is
 * cancelled (a chunked answer declares no length, and a declared one may lie).
 */
async function readCapped(res: Response): Promise<string> {
  if (!res.body) return '';
  const reader: ReadableStreamDefaultReader<Uint8Array> = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_FEED_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new Error(`the answer passed ${MAX_FEED_BYTES} bytes, more than a release feed sends`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * fetch() refuses a URL with a user or password in it; a private feed given as
 * `https://user:pass@host/…` means HTTP basic authentication, so they travel as its header.
 */
function splitCredentials(url: string): { target: string; authorization: string | null } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { target: url, authorization: null };
  }
  if (!u.username && !u.password) return { target: url, authorization: null };
  const pair = `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`;
  u.username = '';
  u.password = '';
  return { target: u.toString(), authorization: `Basic ${Buffer.from(pair).toString('base64')}` };
}

/** The feed's dist-tags; a JigError `update_feed_failed` (502) for anything but a timely, well-formed answer. */
export async function fetchDistTags(
  url: string,
  timeoutMs = FEED_TIMEOUT_MS,
): Promise<Record<string, string>> {
  // A refusal is shown on the board and pasted into bug reports: it names the feed without its
  // credentials, and a reason quoting the URL is stripped the same way.
  const shown = withoutCredentials(url);
  const fail = (reason: string, cause?: unknown): JigError<'update_feed_failed'> =>
    new JigError(
      'update_feed_failed',
      { feed: shown, reason: scrubUrls(reason) },
      { feed: shown },
      { cause },
    );
  const { target, authorization } = splitCredentials(url);
  let res: Response;
  try {
    res = await fetch(target, {
      headers: {
        // The abbreviated document carries the dist-tags at a fraction of the full one's size.
        accept: 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8',
        ...(authorization ? { authorization } : {}),
      },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const e = err as Error;
    if (e.name === 'TimeoutError') throw fail(`no answer within ${timeoutMs / 1000}s`, err);
    const cause = (e as { cause?: Error }).cause;
    throw fail(cause?.message ?? e.message, err);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw fail(`HTTP ${res.status}${res.status === 404 ? ' (no such package on the feed)' : ''}`);
  }
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > MAX_FEED_BYTES) {
    await res.body?.cancel();
    throw fail(`the answer is ${declared} bytes, more than a release feed sends`);
  }
  let text: string;
  try {
    text = await readCapped(res);
  } catch (err) {
    const e = err as Error;
    if (e.name === 'TimeoutError') throw fail(`no whole answer within ${timeoutMs / 1000}s`, err);
    throw fail(e.message, err);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    throw fail('the answer is not JSON', err);
  }
  const doc = FeedDoc.safeParse(body);
  if (!doc.success) throw fail('the answer has no `dist-tags` object of versions');
  return doc.data['dist-tags'];
}
