import { PAGE_CSS, PAGE_CSS_SOURCE } from './page-style.js';
import type { FastifyReply } from 'fastify';

export interface CspSources {
  scripts?: string[];
  styles?: string[];
  /** Inline style attributes and <style> tags, which the viewers' libraries inject. */
  inlineStyles?: boolean;
  workers?: string[];
}

/**
 * Content-Security-Policy for every HTML page: scripts only from Jig and the pinned files, images
 * only from Jig or inline (`data:`), never framed.
 */
export function contentSecurityPolicy(src: CspSources = {}): string {
  // A hash in the list makes a browser ignore 'unsafe-inline': the viewers, which need the latter,
  // do without the hash (their pages have no style element of Jig's).
  const styles = [
    "'self'",
    ...(src.inlineStyles ? ["'unsafe-inline'"] : [PAGE_CSS_SOURCE]),
    ...(src.styles ?? []),
  ];
  return [
    "default-src 'self'",
    `script-src 'self' ${(src.scripts ?? []).join(' ')}`.trim(),
    `style-src ${styles.join(' ')}`,
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    `worker-src 'self' ${(src.workers ?? []).join(' ')}`.trim(),
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/** Sends an HTML page with the CSP and the headers every page carries. */
export function sendHtml(
  reply: FastifyReply,
  status: number,
  html: string,
  csp: CspSources = {},
): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', contentSecurityPolicy(csp))
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'no-referrer')
    .send(html);
}

/** A short page in Jig's plain style, for errors and small screens that work without the board. */
export function simplePage(title: string, bodyHtml: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<link rel="icon" href="data:,"><title>${escapeHtml(title)} · Jig</title><style>${PAGE_CSS}</style></head>
<body><main>
<div class="brand">Jig</div>
<h1>${escapeHtml(title)}</h1>
${bodyHtml}
</main></body></html>
`;
}
