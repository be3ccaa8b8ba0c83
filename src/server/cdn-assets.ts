/**
 * Scripts and styles the schema viewers load from a public CDN, each pinned to one release and
 * integrity-checked. The hashes are sha384 of the files in the npm packages of the same version
 * (jsDelivr serves those bytes unchanged); test/docs-pages.test.ts recomputes them from the
 * packages so a wrong or stale hash fails the suite.
 */
export interface CdnAsset {
  pkg: string;
  version: string;
  file: string;
  integrity: string;
}

export const cdnBase = 'https://cdn.jsdelivr.net/npm';

export const swaggerUiScript: CdnAsset = {
  pkg: 'swagger-ui-dist',
  version: '5.35.0',
  file: 'swagger-ui-bundle.js',
  integrity: 'sha384-gjRm0bEPMeTmMh5jT2cHccIwCUZSTd8YC+j0d0sXw0MdGEfScduGpSyF3ZSSLkX9',
};

export const swaggerUiStyle: CdnAsset = {
  pkg: 'swagger-ui-dist',
  version: '5.35.0',
  file: 'swagger-ui.css',
  integrity: 'sha384-WlYgdmXYOOBWL5apwjDEZwN+U3HmXSSu5R6V5aGxEcf7z+KuRNwBhoxKVN1i3D5I',
};

export const redocScript: CdnAsset = {
  pkg: 'redoc',
  version: '2.5.4',
  file: 'bundles/redoc.standalone.js',
  integrity: 'sha384-w447zOpYfw/1Tv/5AK9NfHTlQIqE3RVR6KY62jCyy9zNDgO64cMwGGP1Fj0zJVf5',
};

export const cdnAssets = [swaggerUiScript, swaggerUiStyle, redocScript];

export function assetUrl(a: CdnAsset): string {
  return `${cdnBase}/${a.pkg}@${a.version}/${a.file}`;
}

/** Where the build puts the same file (scripts/copy-viewers.mjs), under dist/vendor. */
export function vendorFile(a: CdnAsset): string {
  return `${a.pkg}@${a.version}/${a.file}`;
}

/** The local copy's URL: under the viewers' own open paths, so it needs no login either. */
export function localUrl(a: CdnAsset): string {
  return `/docs/vendor/${a.pkg}@${a.version}/${a.file.split('/').pop()}`;
}
