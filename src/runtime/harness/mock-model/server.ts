import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { existsSync } from 'node:fs';
import { chat, chatToolNames } from './chat.js';
import {
  anthropic,
  gemini,
  isObj,
  json,
  openai,
  sendError,
  type Api,
  type Obj,
  type Plan,
} from './answers.js';

/*
 * One loopback model server speaking the APIs the real agent CLIs call: Anthropic Messages
 * (Claude Code), OpenAI Responses (Codex), Gemini (Gemini CLI) and OpenAI Chat Completions (the
 * CLIs pointed at an OpenAI-compatible provider). A test hands it a SCRIPT; each
 * "main" model request (one that offers tools: the agent loop) answers with the next turn. Side
 * requests the CLIs make on their own (quota probes, command-prefix checks, next-speaker checks)
 * carry no tools and get a short neutral answer without consuming the script.
 */

export type Turn =
  /** Answer with text (ends the agent's turn). */
  | { say: string }
  /**
   * Ask the CLI to run this command with its own shell tool; the next request carries the result.
   * `background` (Anthropic only): Claude Code's `run_in_background`, so the CLI answers at once.
   */
  | { bash: string; say?: string; background?: boolean }
  /** Anthropic only: call this tool by name with this input (an MCP tool, say). */
  | { tool: string; input: Record<string, unknown>; say?: string }
  /** Token counts the next answer reports (else a small default). */
  | { usage: { input: number; output: number; cache_read?: number } }
  /**
   * Answer every later main request with this HTTP error (an error turn ends the script), or with
   * `once`, only the next main request (the script goes on after it).
   */
  | { status: 401; once?: boolean }
  | { status: 429; reset_after_s?: number; once?: boolean }
  /** Wait this long before the next answer. */
  | { slow_ms: number }
  /**
   * Hold the next answer until this file exists (what a tool the CLI started writes), at most
   * `max_ms` (default 60 s): orders the answer after the tool by construction, not by timing.
   */
  | { until_file: string; max_ms?: number };

export type { Api };

export interface RecordedRequest {
  api: Api | 'other';
  method: string;
  path: string;
  /** Headers minus credentials. */
  headers: Record<string, string | string[] | undefined>;
  /** The credential headers as sent (the mock's keys are not secrets): what a sandbox's proxy set. */
  credentials: Record<string, string>;
  body: unknown;
  /** Offered tools: the agent loop (consumes the script). */
  main: boolean;
  /** Tool names offered, as the API spells them. */
  tools: string[];
  /** The model asked for. */
  model: string | null;
  /** The HTTP status answered. */
  status: number;
}

export interface MockModelServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Main requests only. */
  main(): RecordedRequest[];
  /** Token totals the mock reported over all answers. */
  reported: { input: number; output: number; cache_read: number };
  close(): Promise<void>;
}

/** Chat Completions, under `/v1` or at the root (clients differ in whether the base URL has it). */
const CHAT_PATH = /^(\/v1)?\/chat\/completions$/;

const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'x-goog-api-key', 'api-key', 'cookie']);
const DEFAULT_USAGE = { input: 100, output: 20, cache_read: 0 };

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function toolNames(api: Api, body: Obj): string[] {
  const tools = Array.isArray(body.tools) ? (body.tools as unknown[]) : [];
  const names: string[] = [];
  for (const t of tools) {
    if (!isObj(t)) continue;
    if (api === 'gemini') {
      const decls = Array.isArray(t.functionDeclarations) ? (t.functionDeclarations as unknown[]) : [];
      for (const d of decls) if (isObj(d) && typeof d.name === 'string') names.push(d.name);
    } else if (typeof t.name === 'string') names.push(t.name);
    else if (typeof t.type === 'string') names.push(t.type);
  }
  return names;
}

export async function startMockModelServer(script: Turn[]): Promise<MockModelServer> {
  const queue = [...script];
  let sticky: Plan | null = null;
  const requests: RecordedRequest[] = [];
  const reported = { input: 0, output: 0, cache_read: 0 };
  // Pending slow_ms waits, ended early by close() so a slow answer never outlives its test.
  const waits = new Set<() => void>();
  let closed = false;
  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        waits.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      waits.add(done);
    });

  /** The next answer for a main request: modifiers up to and including the next answering turn. */
  function nextPlan(): Plan {
    if (sticky) return sticky;
    const plan: Plan = {
      kind: 'say',
      text: 'Done.',
      command: '',
      status: 200,
      resetAfterS: null,
      usage: { ...DEFAULT_USAGE },
      slowMs: 0,
      untilFile: null,
    };
    for (;;) {
      const t = queue.shift();
      if (!t) return plan; // script exhausted: "Done."
      if ('usage' in t) plan.usage = { cache_read: 0, ...t.usage };
      else if ('slow_ms' in t) plan.slowMs += t.slow_ms;
      else if ('until_file' in t) plan.untilFile = { path: t.until_file, maxMs: t.max_ms ?? 60_000 };
      else if ('status' in t) {
        plan.kind = 'error';
        plan.status = t.status;
        plan.resetAfterS = 'reset_after_s' in t ? (t.reset_after_s ?? null) : null;
        if (t.once !== true) sticky = plan;
        return plan;
      } else if ('tool' in t) {
        plan.kind = 'tool';
        plan.tool = { name: t.tool, input: t.input };
        plan.text = t.say ?? 'I will call a tool.';
        return plan;
      } else if ('bash' in t) {
        plan.kind = 'bash';
        plan.command = t.bash;
        plan.background = t.background === true;
        plan.text = t.say ?? 'I will run a command.';
        return plan;
      } else {
        plan.text = t.say;
        return plan;
      }
    }
  }

  function sideUsage(): Plan {
    return {
      kind: 'say',
      text: 'none',
      command: '',
      status: 200,
      resetAfterS: null,
      usage: { input: 0, output: 0, cache_read: 0 },
      slowMs: 0,
      untilFile: null,
    };
  }

  /** Polls (bounded) for a file a tool writes; closing the server ends the wait. */
  async function untilFile(path: string, maxMs: number): Promise<void> {
    const deadline = Date.now() + maxMs;
    while (!existsSync(path) && Date.now() < deadline && !closed) await sleep(50);
  }

  function count(plan: Plan): void {
    reported.input += plan.usage.input;
    reported.output += plan.usage.output;
    reported.cache_read += plan.usage.cache_read;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const raw = req.method === 'GET' || req.method === 'HEAD' ? '' : await readBody(req);
    let body: unknown = raw;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      /* keep the text */
    }
    const headers: RecordedRequest['headers'] = {};
    const credentials: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      headers[k] = SECRET_HEADERS.has(k) ? '<redacted>' : v;
      if (SECRET_HEADERS.has(k) && typeof v === 'string') credentials[k] = v;
    }
    const path = url.pathname;
    const api: RecordedRequest['api'] = path.startsWith('/v1/messages')
      ? 'anthropic'
      : path.startsWith('/v1/responses')
        ? 'openai'
        : CHAT_PATH.test(path)
          ? 'chat'
          : path.startsWith('/v1beta/')
            ? 'gemini'
            : 'other';
    const b = isObj(body) ? body : {};
    const tools = api === 'other' ? [] : api === 'chat' ? chatToolNames(b) : toolNames(api, b);
    const gm = /^\/v1beta\/models\/([^:]+):(\w+)$/.exec(path);
    const model = typeof b.model === 'string' ? b.model : gm ? decodeURIComponent(gm[1] ?? '') : null;
    const rec: RecordedRequest = {
      api,
      method: req.method ?? '',
      path: path + url.search,
      headers,
      credentials,
      body,
      main: false,
      tools,
      model,
      status: 200,
    };
    requests.push(rec);

    if (req.method === 'HEAD' || (req.method === 'GET' && (path === '/' || path === ''))) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(req.method === 'HEAD' ? undefined : 'ok');
      return;
    }
    if (api === 'anthropic' && path === '/v1/messages/count_tokens')
      return json(res, 200, { input_tokens: 10 });
    if (req.method === 'GET' && path.endsWith('/models'))
      return json(res, 200, { object: 'list', data: [], models: [] });
    if (gm && gm[2] === 'countTokens') return json(res, 200, { totalTokens: 10 });
    const isModelCall =
      (api === 'anthropic' && path === '/v1/messages') ||
      (api === 'openai' && path === '/v1/responses') ||
      api === 'chat' ||
      (gm !== null && (gm[2] === 'streamGenerateContent' || gm[2] === 'generateContent'));
    if (req.method !== 'POST' || !isModelCall || api === 'other') {
      rec.status = 404;
      return json(res, 404, { error: { message: `mock model server: no route for ${req.method} ${path}` } });
    }
    rec.main = tools.length > 0;
    const plan = rec.main ? nextPlan() : sideUsage();
    if (plan.untilFile) await untilFile(plan.untilFile.path, plan.untilFile.maxMs);
    if (plan.slowMs > 0) await sleep(plan.slowMs);
    if (res.destroyed) return;
    if (plan.kind === 'error') {
      rec.status = plan.status;
      return sendError(api, res, plan);
    }
    count(plan);
    if (api === 'anthropic') anthropic(b, plan, res, tools);
    else if (api === 'openai') openai(b, plan, tools, res);
    else if (api === 'chat') chat(b, plan, tools, res);
    else gemini(model ?? 'gemini-mock', gm?.[2] === 'streamGenerateContent', plan, res);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) json(res, 500, { error: { message: String(e) } });
      else res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    main: () => requests.filter((r) => r.main),
    reported,
    close: () =>
      new Promise<void>((resolve) => {
        closed = true;
        for (const done of [...waits]) done();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
