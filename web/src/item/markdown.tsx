import DOMPurify from 'dompurify';
import { marked } from 'marked';
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

export default function Markdown({ text }: { text: string }) {
  const html = useMemo(
    () =>
      DOMPurify.sanitize(marked.parse(text, { async: false, gfm: true }), {
        FORBID_TAGS: ['style', 'form', 'input', 'button', 'iframe', 'object', 'embed'],
        FORBID_ATTR: ['style'],
      }),
    [text],
  );
  return <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}
