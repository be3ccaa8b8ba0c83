import { createHash } from 'node:crypto';

/*
 * The look of the pages Jig answers without the board (login, Host refused, not found, not built):
 * the board's colours, type and controls (web/src/styles/base.css `:root`), small enough to sit in the
 * page itself. A refused Host cannot fetch a stylesheet, so it is inline, allowed by its hash in
 * the CSP rather than by 'unsafe-inline'.
 */
export const PAGE_CSS = `:root{--bg:#f7f7f5;--panel:#fff;--ink:#1d1d1b;--muted:#6b6b66;--line:#e4e3df;--accent:#2f5bea;--accent-ink:#fff;--needs:#b54708;--needs-bg:#fff4e5;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;font-size:15px;color:var(--ink);background:var(--bg);color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#161615;--panel:#1f1f1d;--ink:#ecebe8;--muted:#a09f99;--line:#34332f;--accent:#7c9cff;--accent-ink:#0e0e0d;--needs:#f5a35c;--needs-bg:#3a2712}}
body{margin:0;line-height:1.5}
main{max-width:34rem;margin:12vh auto 2rem;padding:1.5rem 1.75rem;background:var(--panel);border:1px solid var(--line);border-radius:10px}
.brand{font-weight:700;font-size:1.1rem;margin-bottom:.25rem}
h1{font-size:1.35rem;margin:.2rem 0 1rem}
a{color:var(--accent)}
code{font-family:ui-monospace,Menlo,monospace;font-size:.92em}
label{display:flex;flex-direction:column;gap:4px}
input{font:inherit;color:inherit;background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:6px 8px}
button{font:inherit;background:var(--accent);color:var(--accent-ink);border:1px solid var(--accent);border-radius:6px;padding:5px 14px;cursor:pointer}
:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
[role=alert]{background:var(--needs-bg);color:var(--needs);border-radius:8px;padding:8px 12px}`;

/** The CSP source that allows exactly this style element. */
export const PAGE_CSS_SOURCE = `'sha256-${createHash('sha256').update(PAGE_CSS).digest('base64')}'`;
