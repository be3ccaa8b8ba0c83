import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cdnAssets, localUrl } from '../src/server/cdn-assets.js';
import { cleanupAll, http, startJig, type JigProcess } from './helpers/server.js';

/** The API viewers' own copies of their pinned files, and a schema document every $ref of which resolves. */
let jig: JigProcess;
beforeAll(async () => {
  jig = await startJig();
});
afterAll(cleanupAll);

describe('the API viewers without the CDN', () => {
  it('serves each pinned file from Jig, byte for byte the pinned one, cached for a year, no login needed', async () => {
    for (const a of cdnAssets) {
      const res = await fetch(`${jig.url}${localUrl(a)}`);
      expect(res.status, localUrl(a)).toBe(200);
      const digest = createHash('sha384')
        .update(Buffer.from(await res.arrayBuffer()))
        .digest('base64');
      expect(`sha384-${digest}`).toBe(a.integrity);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
    const none = await http(`${jig.url}/docs/vendor/redoc@2.5.4/other.js`);
    expect(none.status).toBe(404);
    expect(none.json.code).toBe('not_found');
  });

  it('starts each viewer from a script of Jig, which loads the local copies only when the CDN script is missing', async () => {
    const swagger = await http(`${jig.url}/docs/init.js`);
    expect(swagger.text).toContain("if (typeof window.SwaggerUIBundle === 'function')");
    expect(swagger.text).toContain('"/docs/vendor/swagger-ui-dist@5.35.0/swagger-ui-bundle.js"');
    const redoc = await http(`${jig.url}/redoc/init.js`);
    expect(redoc.text).toContain("if (typeof window.Redoc !== 'undefined') return;");
    expect((await http(`${jig.url}/redoc`)).text).toContain('<script src="/redoc/init.js"></script>');
  });

  it('answers an OpenAPI document in which every $ref names a component it holds', async () => {
    const doc = (await http(`${jig.url}/openapi.json`)).json;
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map(
      (m) => m[1]!,
    );
    expect(refs.length).toBeGreaterThan(0);
    const missing = [...new Set(refs)].filter((name) => !(name in doc.components.schemas));
    expect(missing).toEqual([]);
  });
});
