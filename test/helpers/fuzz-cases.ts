import {
  fromSchema,
  mutate,
  nestedText,
  DEPTHS,
  NASTY_STRINGS,
  type Pools,
  type Rng,
  type Schema,
} from './fuzz-values.js';

/*
 * The requests of the route fuzz, built per operation of /openapi.json: schema-shaped bodies and
 * queries (and their mutations), random bytes, raw JSON oddities, bodies near the size limit, deep
 * nesting in every body field, absurd path params, query strings and headers.
 */

export interface Param {
  in: 'path' | 'query' | 'header';
  name: string;
  required: boolean;
  schema: Schema;
}

export interface Operation {
  method: string;
  path: string;
  params: Param[];
  body: Schema | null;
}

export interface FuzzCase {
  /** `METHOD /path/{template}`: the operation the case belongs to. */
  op: string;
  kind: string;
  method: string;
  /** The request target exactly as sent (already percent-encoded where meant to be). */
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/** Every operation of an OpenAPI document, in document order. */
export function operationsOf(doc: { paths: Record<string, Record<string, any>> }): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const params = ((op.parameters ?? []) as any[]).map((p) => ({
        in: p.in,
        name: p.name,
        required: Boolean(p.required),
        schema: p.schema ?? {},
      }));
      const body = op.requestBody?.content?.['application/json']?.schema ?? null;
      ops.push({ method: method.toUpperCase(), path, params, body });
    }
  }
  return ops;
}

/** Path segments sent as they are: dot segments, bad escapes, NUL, huge, unicode, injection. */
export const ABSURD_SEGMENTS: readonly string[] = [
  '',
  '%20',
  '.',
  '..',
  '%2e%2e',
  '%2e%2e%2f',
  '..%2f..%2f..%2fetc%2fpasswd',
  '%2F',
  '%5C..%5C',
  '%00',
  'a%00b',
  '%ff',
  '%C0%AE%C0%AE',
  '%',
  '%zz',
  '%u0041',
  encodeURIComponent('é😀中'),
  encodeURIComponent('\u202e\u200b'),
  encodeURIComponent('😀'.repeat(1000)),
  'a'.repeat(5000),
  // Past Node's 16 KiB limit on the request line and headers.
  'a'.repeat(17_000),
  'x'.repeat(64),
  'x'.repeat(65),
  '0',
  '-1',
  '1e999',
  'null',
  '__proto__',
  'constructor',
  ';',
  '*',
  '%0d%0aSet-Cookie:%20a=b',
];

export const ABSURD_QUERY_VALUES: readonly string[] = [
  '',
  '-1',
  '0',
  '1.5',
  '0x10',
  '1e400',
  '99999999999999999999999999',
  '9007199254740993',
  'NaN',
  'Infinity',
  '-Infinity',
  '%20',
  '%001',
  '%ff',
  '%',
  'true',
  encodeURIComponent('😀'.repeat(500)),
  'a'.repeat(5000),
  'a'.repeat(17_000),
];

const CONTENT_TYPES = [
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'text/plain',
  'application/octet-stream',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json, text/html',
  'application/vnd.api+json',
];

/** Raw JSON a serializer would never produce: huge literals, prototype keys, duplicates, BOMs. */
const RAW_BODIES: readonly string[] = [
  '',
  'null',
  'true',
  '0',
  '"a string"',
  '[]',
  '{}',
  '{"a":1e999}',
  '{"a":-1e999}',
  `{"a":1${'0'.repeat(400)}}`,
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '{"title":"a","title":{"x":1}}',
  '\ufeff{}',
  '{} trailing',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  `[${'1,'.repeat(100_000)}1]`,
  `{${Array.from({ length: 20_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`,
];

/** encodeURIComponent, except that a lone surrogate goes out as its (invalid UTF-8) WTF-8 bytes. */
function enc(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return s.replace(/[\s\S]/gu, (ch) => {
      try {
        return encodeURIComponent(ch);
      } catch {
        return '%ED%A0%80';
      }
    });
  }
}

function json(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value) ?? 'null', 'utf8');
}

const JSON_HEADERS = { 'content-type': 'application/json' };

/** Query text from values (each encoded), dropping undefined ones. */
function query(values: Record<string, unknown>): string {
  const parts = Object.entries(values)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${enc(k)}=${enc(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))}`);
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

/** Header values must be bytes Node will send; anything else is left out (Node refuses to send it). */
function headerSafe(v: unknown): string | undefined {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s !== undefined && /^[\t\x20-\x7e\x80-\xff]*$/.test(s) ? s : undefined;
}

export class CaseBuilder {
  constructor(
    private readonly rng: Rng,
    private readonly pools: Pools,
  ) {}

  private pathWith(op: Operation, raw: Record<string, string> = {}): string {
    return op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (name in raw) return raw[name]!;
      const pool = this.pools[`${op.path}:${name}`] ?? this.pools[name];
      const v = pool && pool.length > 0 ? String(this.rng.pick(pool)) : 'fuzz';
      return enc(v);
    });
  }

  /** Schema-shaped query and headers for an operation (required ones always, optional ones often). */
  private shapedQueryAndHeaders(
    op: Operation,
    valid: boolean,
  ): { q: string; headers: Record<string, string> } {
    const values: Record<string, unknown> = {};
    const headers: Record<string, string> = {};
    for (const p of op.params) {
      if (p.in === 'path' || (!p.required && this.rng.chance(0.5))) continue;
      const v = fromSchema(p.schema, this.rng, this.pools, p.name, 0, valid);
      if (p.in === 'query') values[p.name] = v;
      else {
        const h = headerSafe(v);
        if (h !== undefined) headers[p.name] = h;
      }
    }
    return { q: query(values), headers };
  }

  private make(
    op: Operation,
    kind: string,
    url: string,
    headers: Record<string, string>,
    body?: Buffer,
  ): FuzzCase {
    return {
      op: `${op.method} ${op.path}`,
      kind,
      method: op.method,
      url,
      headers,
      ...(body ? { body } : {}),
    };
  }

  /** `runs` requests shaped by the schema: valid ones, ones at and past the bounds, and mutations. */
  shaped(op: Operation, runs: number): FuzzCase[] {
    const out: FuzzCase[] = [];
    for (let i = 0; i < runs; i++) {
      const kind = this.rng.pick(['valid', 'valid', 'shaped', 'mutated', 'mutated'] as const);
      const valid = kind === 'valid';
      const { q, headers } = this.shapedQueryAndHeaders(op, valid);
      const url = this.pathWith(op) + q;
      if (!op.body) {
        out.push(this.make(op, kind, url, headers));
        continue;
      }
      let body = fromSchema(op.body, this.rng, this.pools, '', 0, kind !== 'shaped');
      if (kind === 'mutated') body = mutate(body, this.rng);
      // Sometimes no body at all (other JSON types as the body: RAW_BODIES).
      if (this.rng.chance(0.05)) out.push(this.make(op, 'no-body', url, headers));
      else out.push(this.make(op, kind, url, { ...JSON_HEADERS, ...headers }, json(body)));
    }
    return out;
  }

  /** Random bytes under every content type, raw JSON oddities, bodies at the 1 MiB limit. */
  bytes(op: Operation): FuzzCase[] {
    const url = this.pathWith(op);
    const out: FuzzCase[] = [];
    for (const ct of CONTENT_TYPES) {
      const body = this.rng.bytes(1 + this.rng.int(this.rng.chance(0.2) ? 200_000 : 2_000));
      out.push(this.make(op, 'bytes', url, ct ? { 'content-type': ct } : {}, body));
    }
    if (!op.body && op.method === 'GET') return out;
    for (const raw of RAW_BODIES)
      out.push(this.make(op, 'raw-json', url, JSON_HEADERS, Buffer.from(raw, 'utf8')));
    // Just under and just over the 1 MiB body limit, in the first string field (or as the body).
    const field = Object.entries((op.body?.properties ?? {}) as Record<string, Schema>).find(
      ([, s]) => s.type === 'string',
    )?.[0];
    for (const size of [1024 * 1024 - 64, 1024 * 1024 + 1]) {
      const base = (fromSchema(op.body ?? {}, this.rng, this.pools, '', 0, true) ?? {}) as Record<
        string,
        unknown
      >;
      const obj = typeof base === 'object' && !Array.isArray(base) ? base : {};
      obj[field ?? 'x'] = '';
      const shell = JSON.stringify(obj).length;
      obj[field ?? 'x'] = 'é'.repeat(Math.max(0, Math.floor((size - shell) / 2)));
      out.push(this.make(op, `huge-${size}`, url, JSON_HEADERS, json(obj)));
    }
    return out;
  }

  /** Objects and arrays nested 10, 31, 33, 1 000 and 50 000 levels, in every body field and as the body. */
  deep(op: Operation): FuzzCase[] {
    if (!op.body && op.method === 'GET') return [];
    const url = this.pathWith(op);
    const fields = Object.keys((op.body?.properties ?? {}) as Record<string, Schema>);
    const out: FuzzCase[] = [];
    for (const depth of DEPTHS) {
      for (const kind of ['object', 'array'] as const)
        out.push(
          this.make(op, `deep-${kind}-${depth}`, url, JSON_HEADERS, Buffer.from(nestedText(depth, kind))),
        );
      for (const f of fields.length > 0 ? fields : ['x']) {
        const base = (fromSchema(op.body ?? {}, this.rng, this.pools, '', 0, true) ?? {}) as Record<
          string,
          unknown
        >;
        const obj = typeof base === 'object' && !Array.isArray(base) ? base : {};
        delete obj[f];
        const head = JSON.stringify(obj).slice(0, -1);
        const sep = Object.keys(obj).length > 0 ? ',' : '';
        const kind = this.rng.chance(0.5) ? 'object' : 'array';
        const text = `${head}${sep}${JSON.stringify(f)}:${nestedText(depth, kind)}}`;
        out.push(this.make(op, `deep-${f}-${depth}`, url, JSON_HEADERS, Buffer.from(text)));
      }
    }
    return out;
  }

  /** Each path param absurd in turn (the others from their pools), then each real value of its pool. */
  pathParams(op: Operation): FuzzCase[] {
    const out: FuzzCase[] = [];
    const body = op.body ? json(fromSchema(op.body, this.rng, this.pools, '', 0, true)) : undefined;
    const headers = body ? JSON_HEADERS : {};
    for (const p of op.params.filter((x) => x.in === 'path')) {
      for (const seg of ABSURD_SEGMENTS)
        out.push(this.make(op, `path-${p.name}`, this.pathWith(op, { [p.name]: seg }), headers, body));
      for (const real of this.pools[`${op.path}:${p.name}`] ?? this.pools[p.name] ?? [])
        out.push(
          this.make(
            op,
            `path-${p.name}-real`,
            this.pathWith(op, { [p.name]: enc(String(real)) }),
            headers,
            body,
          ),
        );
    }
    return out;
  }

  /** The other methods on the same path (an unknown one included), and a browser's HTML `Accept`. */
  methods(op: Operation): FuzzCase[] {
    const url = this.pathWith(op);
    const out = ['GET', 'PUT', 'DELETE', 'PATCH', 'POST', 'OPTIONS', 'HEAD', 'TRACE', 'FOO']
      .filter((m) => m !== op.method)
      .map((m) => ({ ...this.make(op, 'method', url, {}), method: m }));
    out.push(this.make(op, 'accept-html', url, { accept: 'text/html,application/xhtml+xml' }));
    out.push(
      this.make(
        op,
        'gzip',
        url,
        { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        this.rng.bytes(64),
      ),
    );
    return out;
  }

  /** Absurd query strings: repeated keys, brackets, huge, negative, NaN, bad escapes; and headers. */
  queries(op: Operation): FuzzCase[] {
    const out: FuzzCase[] = [];
    const names = op.params.filter((p) => p.in === 'query').map((p) => p.name);
    const base = this.pathWith(op);
    const body = op.body ? json(fromSchema(op.body, this.rng, this.pools, '', 0, true)) : undefined;
    const headers = body ? JSON_HEADERS : {};
    for (const name of names.length > 0 ? names : ['x']) {
      for (const v of ABSURD_QUERY_VALUES)
        out.push(this.make(op, `query-${name}`, `${base}?${name}=${v}`, headers, body));
      for (const q of [
        `${name}=1&${name}=2`,
        `${name}[]=1`,
        `${name}[a]=1`,
        name,
        `${name}=1&&&=`,
        `=&${name}=%`,
      ])
        out.push(this.make(op, `query-${name}`, `${base}?${q}`, headers, body));
    }
    for (const p of op.params.filter((x) => x.in === 'header')) {
      for (const v of [...NASTY_STRINGS, 'a'.repeat(255), 'a'.repeat(256), '*', 'W/"x"', '"sha256-x"', 'é']) {
        const h = headerSafe(v);
        if (h !== undefined)
          out.push(this.make(op, `header-${p.name}`, base, { ...headers, [p.name]: h }, body));
      }
    }
    return out;
  }
}
