import { lazy, Suspense } from 'react';

// The Markdown renderer and its sanitizer load with the first text that needs them, not with the board.
const Markdown = lazy(() => import('./markdown.js'));

/**
 * A person's or a chain's words that may be Markdown (a brief, a gate's message, a node's
 * description), rendered through marked and DOMPurify as gate documents are, with one difference:
 * HTML in it shows as the text it is, so nothing in it is markup, let alone runs. Until the renderer
 * has loaded the text shows as it was written.
 */
export function RichText({ text, className }: { text: string; className?: string }) {
  return (
    <Suspense fallback={<div className={`rich-plain ${className ?? ''}`}>{text}</div>}>
      <Markdown text={text} className={className} html="text" />
    </Suspense>
  );
}
