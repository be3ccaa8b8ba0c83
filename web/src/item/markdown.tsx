import DOMPurify from 'dompurify';
import { Marked } from 'marked';
import { useMemo } from 'react';

/*
 * A document an agent wrote, rendered: Markdown to HTML (marked), then sanitized (DOMPurify) so
 * nothing in it runs or reaches out — no script, no event handler, no form, no frame, no remote
 * image (the page's CSP would refuse one anyway; dropping it keeps the console clean). Links open
 * in a new tab without handing this page to them.
 */
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
  if (node.tagName === 'IMG') {
    const src = node.getAttribute('src') ?? '';
    if (!src.startsWith('data:')) node.removeAttribute('src');
  }
});

const escapeHtml = (s: string) =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** Documents: the HTML they hold is kept as far as the sanitizer allows (tables, details…). */
const documents = new Marked({ gfm: true, async: false });
/**
 * Briefs and gate messages: HTML in them is shown as the text it is, never parsed as markup. Besides
 * being what a person typed, it keeps Chromium quiet: parsing an `onerror` attribute, even in the
 * sanitizer's inert document, logs a CSP violation to the console.
 */
const texts = new Marked({
  gfm: true,
  async: false,
  renderer: { html: ({ text }) => escapeHtml(text) },
});

export default function Markdown({
  text,
  className,
  html = 'sanitize',
}: {
  text: string;
  className?: string;
  /** `sanitize`: raw HTML is cleaned and kept (documents); `text`: it shows as text. */
  html?: 'sanitize' | 'text';
}) {
  const out = useMemo(
    () =>
      DOMPurify.sanitize((html === 'text' ? texts : documents).parse(text, { async: false }), {
        FORBID_TAGS: ['style', 'form', 'input', 'button', 'iframe', 'object', 'embed'],
        FORBID_ATTR: ['style'],
      }),
    [text, html],
  );
  return <div className={`markdown ${className ?? ''}`} dangerouslySetInnerHTML={{ __html: out }} />;
}
